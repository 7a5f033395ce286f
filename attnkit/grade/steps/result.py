"""Submission step ``result``: the hand-in's :class:`grader.results.SubmissionResult`.

A graded hand-in: the checks' results, with the notes the instructor reads (the entries intake skipped, then the
problems the sandbox noted; a missing module's note names the hand-in's files that look like it). A refused
one: every check of the course failed with the refusal as its message (so its maximum stays right), the note
holding the reason alone (its kind already says refused).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from grader.results import Note, NoteKind, SubmissionResult

from ..state import Submission, needed
from ..submissions import Intake

REFUSAL = ("refused: {reason}. Hand in the zip `attnkit pack` writes in your attnkit folder (your exercise modules "
           "and nothing else)")


def result(state: Submission) -> Submission:
    """``state`` with its result."""
    student = state.task.entry.student
    if state.refusal is not None:
        state.result = refused(student, state.refusal, state.task.exercises)
        return state
    intake, modules = needed(state.intake, "the intake", "result"), needed(state.modules, "the modules", "result")
    notes = [Note(NoteKind.SKIPPED, name) for name in intake.skipped]
    notes += [found_instead(note, modules, intake) for note in state.problems]
    state.result = SubmissionResult(student, state.exercises, notes=notes)
    return state


def refused(student: str, reason: str, exercise_ids: tuple[str, ...]) -> SubmissionResult:
    """Every check failed with the refusal (:data:`REFUSAL`) as the message; the note holds ``reason``."""
    from grader.results import FAILED as CHECK_FAILED
    from grader.results import CheckResult, ExerciseResult
    from grader.runner import discover

    problem = REFUSAL.format(reason=reason)
    exercises = [ExerciseResult(ex, [CheckResult(ex, s.name, s.title, s.task, 0.0, s.points, CHECK_FAILED,
                                                 message=problem, visibility=s.visibility) for s in discover(ex)])
                 for ex in exercise_ids]
    return SubmissionResult(student, exercises, problem=problem, notes=[Note(NoteKind.REFUSED, reason)])


def found_instead(note: Note, modules: Path, intake: Intake) -> Note:
    """A missing module's note names the hand-in's files that look like it (``softmax (1).py``, ``Softmax.py``)."""
    if note.kind is not NoteKind.MISSING_MODULE:
        return note
    wanted = note.detail[: -len(".py")]
    alike = [name for name, _ in intake.files if letters(name.rsplit("/", 1)[-1]) == wanted
             and (modules / name.rsplit("/", 1)[-1]) != modules / note.detail]
    found = f" (found instead: {', '.join(alike[:3])})" if alike else ""
    return replace(note, detail=note.detail + found)


def letters(filename: str) -> str:
    """``Softmax (1).py`` -> ``softmax``: a file name reduced to what a student meant."""
    stem = filename[: -len(".py")] if filename.endswith(".py") else filename
    return "".join(c for c in stem.lower() if c.isalnum() or c == "_").rstrip("0123456789_")
