"""The checks: one module ``check_<exercise>.py`` per exercise, pytest-style ``test_*`` functions.

Every front end (``pytest --impl``, ``attnkit check``, ``attnkit grade``, nbgrader, Gradescope)
runs these same functions; see docs/ARCHITECTURE.md for the contract.
"""
