"""Isolation for student code: a clean zygote process forks one child per exercise.

The trusted side talks to a child only through :mod:`grader.sandbox.wire` (JSON + ``.npy``,
never pickles) and judges nothing the child says about itself.
"""
