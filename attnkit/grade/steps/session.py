"""Submission step ``session``: the sandbox runs every check of the course on the hand-in's modules.

Each grading worker starts one :class:`grader.sandbox.Sandbox` (:func:`start`, from the pool's initializer): every
hand-in is one :class:`grader.sandbox.GradingSession`, in which each exercise is checked in a child, in a private
copy of the modules (``grader.runner.run_submission``), each exercise on its own code (its calls of other
exercises answered by the reference). What the children ran into (a module missing, a timeout, output cut
short) is the session's report, the hand-in's problems; the session has already taken its private paths out of
messages and notes. All of ``attnkit grade``'s wiring of ``grader.sandbox`` is in this module: the limits, the
sandbox, core pinning and the grading secret.
"""
from __future__ import annotations

from multiprocessing import util

from grader.checks import secret

from ..state import Submission, needed

_sandbox = None  # this worker's


def start(timeout: float, memory_bytes: int, student_seconds: float | None = None, stdlib: str | None = None,
          counter=None) -> None:
    """Start this worker's sandbox under the run's limits (closed when the worker exits); ``counter``: a shared
    integer numbering the workers, worker i and its children kept on core i (``Sandbox.pin``)."""
    global _sandbox
    from grader.sandbox import Limits, Sandbox

    budget = {} if student_seconds is None else {"student_seconds": student_seconds}
    _sandbox = Sandbox(Limits(timeout=timeout, memory_bytes=memory_bytes, **budget), stdlib=stdlib)
    secret.load()  # inputs of the checks a child must not predict (grader.checks.secret)
    if counter is not None:
        with counter.get_lock():
            index = counter.value
            counter.value += 1
        _sandbox.pin(index)
    util.Finalize(_sandbox, _sandbox.close, exitpriority=100)


def session(state: Submission, sandbox=None) -> Submission:
    """``state`` with the checks' results and the problems the sandbox noted; ``sandbox``: this worker's when
    None. A refused hand-in is not run."""
    from grader.runner import run_submission

    if state.refusal is not None:
        return state
    modules = needed(state.modules, "the modules", "session")
    with (sandbox or _sandbox).session(modules) as graded:
        state.exercises = run_submission(graded, state.task.exercises, own_siblings=False)
    state.problems = list(graded.report.notes)
    return state
