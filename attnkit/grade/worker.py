"""A grading worker process: one sandbox zygote, then one submission per task.

The worker writes the student's results itself (Gradescope JSON first, our record last, both
atomically) and returns only ``(student, status, score, max_score)`` to the parent.
SIGINT is ignored (the parent decides); SIGTERM (the parent stopping the pool) unwinds the
current task, removing its temporary folders, and closes the zygote, which kills its children.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from attnkit import atomic

from . import gradescope_results, records
from .submissions import Entry, SubmissionProblem, check_folder, extract_zip, package_root

GRADED, REFUSED, FAILED = "graded", "refused", "error"
# a private sandbox path (never the same twice) must not make two runs' results differ
SANDBOX_PATH = re.compile(r"/[^\s'\"]*?attnkit-[A-Za-z0-9_]+/(?:submission|scratch)/")

_zygote = None


@dataclass(frozen=True)
class Task:
    entry: Entry
    submission_hash: str
    out: Path
    version: str


@dataclass(frozen=True)
class Done:
    student: str
    status: str        # graded | refused | error
    score: float
    max_score: float
    message: str = ""  # the problem (refused) or the grader's own failure (error)


def initialize(timeout: float, memory_bytes: int, counter=None) -> None:
    """Pool initializer: ignore Ctrl-C, start this worker's zygote, close it when the worker exits."""
    global _zygote
    from multiprocessing import util

    from grader.sandbox.child import Limits, Zygote

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    # every temporary folder of this worker (the sandbox's workspaces too) lives under one root,
    # removed when the worker exits, even if it was stopped in the middle of creating one
    root = tempfile.mkdtemp(prefix="attnkit-worker-")
    os.chmod(root, 0o755)  # children (user nobody when we are root) must reach their workspace
    tempfile.tempdir = root
    util.Finalize(None, shutil.rmtree, args=(root, True), exitpriority=50)
    _zygote = Zygote(Limits(timeout=timeout, memory_bytes=memory_bytes))
    if counter is not None:  # worker i and its children on core i (see grader.sandbox.affinity)
        from grader.sandbox.affinity import pin_with

        with counter.get_lock():
            index = counter.value
            counter.value += 1
        pin_with(_zygote, index)
    util.Finalize(_zygote, _zygote.close, exitpriority=100)


def _stop(signum, frame):
    raise SystemExit(128 + signum)


def grade(task: Task) -> Done:
    """Grade one submission and write its files; never raises for anything the student did."""
    try:
        result = _grade(task.entry)
        _commit(task, result)
    except Exception as failure:  # a bug on our side: no record, so a re-run tries again
        return Done(task.entry.student, FAILED, 0.0, 0.0, f"internal error: {type(failure).__name__}: {failure}")
    status = REFUSED if result.problem else GRADED
    return Done(task.entry.student, status, result.score, result.max_score, result.problem)


def _grade(entry: Entry):
    from grader.runner import modules_dir_of, run_submission

    scratch = Path(tempfile.mkdtemp(prefix="attnkit-grade-"))
    try:
        try:
            if entry.kind == "symlink":
                raise SubmissionProblem(f"refused: {entry.path.name} is a symbolic link; hand in a folder or a .zip")
            if entry.kind == "zip":
                unpacked = scratch / "unpacked"
                unpacked.mkdir()
                extract_zip(entry.path, unpacked)
                root = package_root(unpacked)
            else:
                check_folder(entry.path)
                root = package_root(entry.path)
        except SubmissionProblem as problem:
            return refused(entry.student, str(problem))
        exercises = run_submission(modules_dir_of(root), _zygote)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    from grader.results import SubmissionResult

    return SubmissionResult(entry.student, exercises)


def refused(student: str, problem: str):
    """Every check failed with the submission's problem as the message (so max_score stays right)."""
    from grader import curriculum
    from grader.results import FAILED as CHECK_FAILED
    from grader.results import CheckResult, ExerciseResult, SubmissionResult
    from grader.runner import discover

    exercises = [ExerciseResult(ex, [CheckResult(ex, s.name, s.title, s.task, 0.0, s.points, CHECK_FAILED,
                                                 message=problem, visibility=s.visibility) for s in discover(ex)])
                 for ex in curriculum.ids()]
    return SubmissionResult(student, exercises, problem=problem)


def _normalize(result) -> None:
    """Drop what differs between two gradings of the same submission (timings, sandbox paths)."""
    for exercise in result.exercises:
        for check in exercise.checks:
            check.seconds = 0.0
            check.message = SANDBOX_PATH.sub("", check.message)


def _commit(task: Task, result) -> None:
    _normalize(result)
    student = task.entry.student
    atomic.write_json(records.gradescope_path(task.out, student), gradescope_results.results_json(result))
    record = result.to_dict()
    record["submission_hash"] = task.submission_hash
    record["grader_version"] = task.version
    atomic.write_json(records.record_path(task.out, student), record)  # last: the commit marker


if __name__ == "__main__":  # pragma: no cover
    sys.exit("attnkit.grade.worker is started by attnkit.grade")
