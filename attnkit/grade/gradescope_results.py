"""Format a :class:`grader.results.SubmissionResult` as a Gradescope ``results.json``.

The schema (https://gradescope-autograders.readthedocs.io/en/latest/specs/): top-level ``score``,
``output``, ``visibility`` and ``tests``, each test with ``name``, ``score``, ``max_score``,
``output``, ``visibility`` and optional ``number``, ``status``, ``tags``. Nothing here is
time-dependent, so the same result always formats to the same JSON.
"""
from __future__ import annotations

from grader.results import PASSED, CheckResult, NoteKind, SubmissionResult

# our check visibility -> Gradescope's: hidden checks are shown once grades are published
VISIBILITY = {"visible": "visible", "hidden": "after_published"}
# the results as a whole (their total score): visible at once, or once published when a check is hidden, so that
# the total cannot tell a hidden check's result; the visible checks say "visible" themselves and show at once
TOP_VISIBILITY = "visible"


def _number(value: float) -> float | int:
    value = round(float(value), 6)
    return int(value) if value.is_integer() else value


def test_entry(exercise_index: int, check_index: int, check: CheckResult) -> dict:
    lines = [check.message] if check.message else []
    if check.hint:
        lines.append(f"hint: {check.hint}")
    if check.status == PASSED and not lines:
        lines.append("passed")
    return {
        "name": f"{check.exercise}: {check.title}",
        "number": f"{exercise_index}.{check_index}",
        "score": _number(check.points),
        "max_score": _number(check.max_points),
        "status": "passed" if check.status == PASSED else "failed",
        "output": "\n".join(lines),
        "tags": [check.exercise, f"task {check.task}"] + ([check.mistake] if check.mistake else []),
        "visibility": VISIBILITY.get(check.visibility, "visible"),
    }


# what the student is told about the problems attnkit.grade noted (the others already show in the checks' messages)
NOTES = {NoteKind.SKIPPED: "left out of your hand-in", NoteKind.MISSING_MODULE: "missing from your hand-in",
         NoteKind.OUTPUT_TRUNCATED: "printed output cut short", NoteKind.TOO_SLOW: "too slow"}


def has_hidden(result: SubmissionResult) -> bool:
    return any(check.visibility != "visible" for exercise in result.exercises for check in exercise.checks)


def output_text(result: SubmissionResult) -> str:
    """The results' top text: the submission's problem, the notes the student is told about, a line per exercise.
    Shown before publication, so it counts the visible checks' points alone (the notes are computed from them too)."""
    summary = [f"{e.exercise}: {_number(e.visible_score)}/{_number(e.visible_max_score)}" + (f" ({e.note})" if e.note
                                                                                            else "")
               for e in result.exercises]
    if has_hidden(result):
        summary.append("(visible checks only: the hidden checks' points count once grades are published)")
    notes = [f"{NOTES[n.kind]}: {n.detail}" for n in result.notes if n.kind in NOTES]
    return "\n".join(([result.problem, ""] if result.problem else []) + ([*notes, ""] if notes else []) + summary)


def results_json(result: SubmissionResult) -> dict:
    tests = [test_entry(i, j, check)
             for i, exercise in enumerate(result.exercises, start=1)
             for j, check in enumerate(exercise.checks, start=1)]
    return {
        "score": _number(result.score),
        "output": output_text(result),
        "visibility": "after_published" if has_hidden(result) else TOP_VISIBILITY,
        "stdout_visibility": "hidden",
        "tests": tests,
    }
