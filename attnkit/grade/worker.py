"""A grading worker process: one sandbox zygote, then one submission per task.

The worker writes the student's results itself (Gradescope JSON first, our record last, both
atomically) and returns only ``(student, status, score, max_score)`` to the parent.
SIGINT is ignored (the parent decides); SIGTERM (the parent stopping the pool) unwinds the
current task, removing its temporary folders, and closes the zygote, which kills its children.
"""
from __future__ import annotations

import errno
import os
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from attnkit import atomic
from grader import files
from grader.checks import secret

from . import gradescope_results, records
from .submissions import Entry, SubmissionProblem, extract_zip, package_root, stage_folder

GRADED, REFUSED, FAILED = "graded", "refused", "error"
REFUSAL = ("refused: {reason}. Hand in the zip `attnkit pack` writes in your attnkit folder (your exercise modules "
           "and nothing else)")
DISK_FULL = "disk full"  # the temp folder's disk was full (another hand-in's files?): graded again later
FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)

_zygote = None
_current = None  # a queue the parent reads to show who is being graded


@dataclass(frozen=True)
class Task:
    entry: Entry
    submission_hash: str
    out: Path
    version: str
    exercises: tuple[str, ...]  # the course's exercises (all of the curriculum, or --exercises)


@dataclass(frozen=True)
class Done:
    student: str
    status: str        # graded | refused | error
    score: float
    max_score: float
    message: str = ""  # the problem (refused) or the grader's own failure (error)


def initialize(timeout: float, memory_bytes: int, counter=None, student_seconds: float | None = None,
               current=None, stdlib: str | None = None) -> None:
    """Pool initializer: ignore Ctrl-C, start this worker's zygote, close it when the worker exits."""
    global _zygote
    from multiprocessing import util

    from grader.sandbox.host.spawner import Limits, Zygote

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    # every temporary folder of this worker (the sandbox's workspaces too) lives under one root,
    # removed when the worker exits, even if it was stopped in the middle of creating one
    root = tempfile.mkdtemp(prefix="attnkit-worker-")
    os.chmod(root, 0o755)  # children (user nobody when we are root) must reach their workspace
    tempfile.tempdir = root
    util.Finalize(None, files.remove, args=(root,), exitpriority=50)
    global _current
    _current = current
    budget = {} if student_seconds is None else {"student_seconds": student_seconds}
    _zygote = Zygote(Limits(timeout=timeout, memory_bytes=memory_bytes, **budget), stdlib)
    secret.load()  # inputs of the checks a child must not predict (grader.checks.secret)
    if counter is not None:  # worker i and its children on core i (see grader.sandbox.host.affinity)
        from grader.sandbox.host.affinity import pin_with

        with counter.get_lock():
            index = counter.value
            counter.value += 1
        pin_with(_zygote, index)
    util.Finalize(_zygote, _zygote.close, exitpriority=100)


def _stop(signum, frame):
    raise SystemExit(128 + signum)


def grade(task: Task) -> Done:
    """Grade one submission and write its files; never raises for anything the student did."""
    if _current is not None:
        _current.put(task.entry.student)
    try:
        result = _grade(task.entry, task.exercises)
        _commit(task, result)
    except OSError as failure:
        if failure.errno in FULL_ERRNOS:  # not this student's doing: graded again once the disk has room
            return Done(task.entry.student, DISK_FULL, 0.0, 0.0,
                        f"the temp folder's disk was full ({failure.strerror})")
        return Done(task.entry.student, FAILED, 0.0, 0.0, f"internal error: {type(failure).__name__}: {failure}")
    except Exception as failure:  # a bug on our side: no record, so a re-run tries again
        return Done(task.entry.student, FAILED, 0.0, 0.0, f"internal error: {type(failure).__name__}: {failure}")
    status = REFUSED if result.problem else GRADED
    return Done(task.entry.student, status, result.score, result.max_score, result.problem)


def _grade(entry: Entry, exercise_ids: tuple[str, ...]):
    from grader.runner import modules_dir_of, run_submission

    scratch = Path(tempfile.mkdtemp(prefix="attnkit-grade-"))
    try:
        unpacked = scratch / "unpacked"
        unpacked.mkdir()
        try:
            if entry.kind == "symlink":
                raise SubmissionProblem(f"{entry.path.name} is a symbolic link")
            intake = extract_zip(entry.path, unpacked) if entry.kind == "zip" else stage_folder(entry.path, unpacked)
            root = package_root(unpacked)
        except SubmissionProblem as problem:
            return refused(entry.student, str(problem), exercise_ids)
        _zygote.problems.clear()
        modules = modules_dir_of(root)
        exercises = run_submission(modules, _zygote, exercise_ids, own_siblings=False)
        notes = [{"kind": "skipped", "detail": name} for name in intake.skipped]
        notes += [_found_instead(note, modules, intake) for note in _zygote.problems]
    finally:
        files.remove(scratch)
    from grader.results import SubmissionResult

    return SubmissionResult(entry.student, exercises, notes=notes)


def _found_instead(note: dict, modules: Path, intake) -> dict:
    """A missing module's note names the hand-in's files that look like it (``softmax (1).py``, ``Softmax.py``)."""
    if note["kind"] != "missing_module":
        return note
    wanted = note["detail"][: -len(".py")]
    alike = [name for name, _ in intake.files if _letters(name.rsplit("/", 1)[-1]) == wanted
             and (modules / name.rsplit("/", 1)[-1]) != modules / note["detail"]]
    found = f" (found instead: {', '.join(alike[:3])})" if alike else ""
    return {"kind": "missing_module", "detail": note["detail"] + found}


def _letters(filename: str) -> str:
    """``Softmax (1).py`` -> ``softmax``: a file name reduced to what a student meant."""
    stem = filename[: -len(".py")] if filename.endswith(".py") else filename
    return "".join(c for c in stem.lower() if c.isalnum() or c == "_").rstrip("0123456789_")


def refused(student: str, reason: str, exercise_ids: tuple[str, ...]):
    """Every check failed with the refusal (:data:`REFUSAL`) as the message (so max_score stays right); the
    instructor's note holds the ``reason`` alone (its kind already says refused)."""
    problem = REFUSAL.format(reason=reason)
    from grader.results import FAILED as CHECK_FAILED
    from grader.results import CheckResult, ExerciseResult, SubmissionResult
    from grader.runner import discover

    exercises = [ExerciseResult(ex, [CheckResult(ex, s.name, s.title, s.task, 0.0, s.points, CHECK_FAILED,
                                                 message=problem, visibility=s.visibility) for s in discover(ex)])
                 for ex in exercise_ids]
    return SubmissionResult(student, exercises, problem=problem, notes=[{"kind": "refused", "detail": reason}])


def _normalize(result) -> None:
    """Drop what differs between two gradings of the same submission (timings, sandbox paths)."""
    from grader.sandbox.host.workspace import strip_paths

    for exercise in result.exercises:
        for check in exercise.checks:
            check.seconds = 0.0
            check.message = strip_paths(check.message)
    for note in result.notes:
        note["detail"] = strip_paths(note["detail"])


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
