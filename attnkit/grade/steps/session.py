"""Submission step ``session``: the sandbox runs every check of the course on the hand-in's modules.

Each grading worker starts one zygote (:func:`start`, from the pool's initializer): every exercise of a hand-in
is checked in a child of it, in a private copy of the modules (``grader.runner.run_submission``), each exercise
on its own code (its calls of other exercises answered by the reference). What the children ran into (a module
missing, a timeout, output cut short) is kept as the hand-in's problems. All of ``attnkit grade``'s wiring of
``grader.sandbox`` is in this module: the limits, the zygote, core pinning, the grading secret, the paths of the
sandbox's workspaces (:func:`comparable`).
"""
from __future__ import annotations

from multiprocessing import util

from grader.checks import secret

from ..state import Submission, needed

_zygote = None  # this worker's


def start(timeout: float, memory_bytes: int, student_seconds: float | None = None, stdlib: str | None = None,
          counter=None) -> None:
    """Start this worker's zygote under the run's limits (closed when the worker exits); ``counter``: a shared
    integer numbering the workers, worker i and its children kept on core i (``grader.sandbox.host.affinity``)."""
    global _zygote
    from grader.sandbox.host.spawner import Limits, Zygote

    budget = {} if student_seconds is None else {"student_seconds": student_seconds}
    _zygote = Zygote(Limits(timeout=timeout, memory_bytes=memory_bytes, **budget), stdlib)
    secret.load()  # inputs of the checks a child must not predict (grader.checks.secret)
    if counter is not None:
        from grader.sandbox.host.affinity import pin_with

        with counter.get_lock():
            index = counter.value
            counter.value += 1
        pin_with(_zygote, index)
    util.Finalize(_zygote, _zygote.close, exitpriority=100)


def session(state: Submission, zygote=None) -> Submission:
    """``state`` with the checks' results and the problems the sandbox noted; ``zygote``: this worker's when None.
    A refused hand-in is not run."""
    from grader.runner import run_submission

    if state.refusal is not None:
        return state
    modules = needed(state.modules, "the modules", "session")
    zygote = zygote or _zygote
    zygote.problems.clear()
    state.exercises = run_submission(modules, zygote, state.task.exercises, own_siblings=False)
    state.problems = [dict(problem) for problem in zygote.problems]
    return state


def comparable(text: str) -> str:
    """``text`` without the paths of the sandbox's private workspaces, which differ from one grading to the next."""
    from grader.sandbox.host.workspace import strip_paths

    return strip_paths(text)
