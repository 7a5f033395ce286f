"""A grading worker process: one sandbox zygote, then one hand-in per task through the submission steps.

The steps write the student's files themselves (Gradescope JSON first, our record last, both atomically;
:mod:`attnkit.grade.steps.report`); the worker returns only a :class:`Done` to the parent. SIGINT is ignored (the
parent decides); SIGTERM (the parent stopping the pool) unwinds the current task, removing its temporary
folders, and closes the zygote, which kills its children.
"""
from __future__ import annotations

import errno
import os
import signal
import sys
import tempfile
from dataclasses import dataclass

from grader import files

from . import pipeline
from .state import Task
from .steps import session

__all__ = ["DISK_FULL", "FAILED", "GRADED", "REFUSED", "Done", "Task", "grade", "initialize"]

GRADED, REFUSED, FAILED = "graded", "refused", "error"
DISK_FULL = "disk full"  # the temp folder's disk was full (another hand-in's files?): graded again later
FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)

_current = None  # a queue the parent reads to show who is being graded


@dataclass(frozen=True)
class Done:
    student: str
    status: str        # graded | refused | error | disk full
    score: float
    max_score: float
    message: str = ""  # the problem (refused) or the grader's own failure (error)


def initialize(timeout: float, memory_bytes: int, counter=None, student_seconds: float | None = None,
               current=None, stdlib: str | None = None) -> None:
    """Pool initializer: ignore Ctrl-C, keep every temporary folder under one root removed at exit, start the
    session step's sandbox (:func:`attnkit.grade.steps.session.start`)."""
    global _current
    from multiprocessing import util

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    # every temporary folder of this worker (the sandbox's workspaces too) lives under one root,
    # removed when the worker exits, even if it was stopped in the middle of creating one
    root = tempfile.mkdtemp(prefix="attnkit-worker-")
    os.chmod(root, 0o755)  # children (user nobody when we are root) must reach their workspace
    tempfile.tempdir = root
    util.Finalize(None, files.remove, args=(root,), exitpriority=50)
    _current = current
    session.start(timeout, memory_bytes, student_seconds, stdlib, counter)


def _stop(signum, frame):
    raise SystemExit(128 + signum)


def grade(task: Task) -> Done:
    """Grade one submission and write its files; never raises for anything the student did."""
    student = task.entry.student
    if _current is not None:
        _current.put(student)
    try:
        result = pipeline.grade_submission(task).result
    except OSError as failure:
        if failure.errno in FULL_ERRNOS:  # not this student's doing: graded again once the disk has room
            return Done(student, DISK_FULL, 0.0, 0.0, f"the temp folder's disk was full ({failure.strerror})")
        return Done(student, FAILED, 0.0, 0.0, f"internal error: {type(failure).__name__}: {failure}")
    except Exception as failure:  # a bug on our side: no record, so a re-run tries again
        return Done(student, FAILED, 0.0, 0.0, f"internal error: {type(failure).__name__}: {failure}")
    return Done(student, REFUSED if result.problem else GRADED, result.score, result.max_score, result.problem)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("attnkit.grade.worker is started by attnkit.grade")
