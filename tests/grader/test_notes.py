"""The instructor's notes (``grader.results.Note``): a kind from ``NoteKind``, written as the plain
``{"kind", "detail"}`` objects the record files have always held, and refused when a record holds what this
version cannot read."""
from __future__ import annotations

import json

import pytest

from grader.results import PASSED, CheckResult, ExerciseResult, Note, NoteKind, SubmissionResult


def every_kind() -> SubmissionResult:
    check = CheckResult("softmax", "test_sum", "sums to 1", 1, 2.0, 2.0, PASSED)
    notes = [Note(kind, f"{kind.value}: détail \u2013 {index}") for index, kind in enumerate(NoteKind)]
    return SubmissionResult("alice", [ExerciseResult("softmax", [check])], notes=notes)


def test_a_record_round_trips_with_every_kind_in_order():
    result = every_kind()
    read = SubmissionResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert read == result and [type(note) for note in read.notes] == [Note] * len(NoteKind)
    assert all(type(note.kind) is NoteKind for note in read.notes)


def test_notes_are_written_as_the_plain_objects_records_always_held():
    written = every_kind().to_dict()["notes"]
    assert written == [{"kind": kind.value, "detail": f"{kind.value}: détail \u2013 {index}"}
                       for index, kind in enumerate(NoteKind)]
    assert all(list(note) == ["kind", "detail"] and type(note["kind"]) is str for note in written)


def test_the_kinds_are_the_strings_of_the_files():
    assert [kind.value for kind in NoteKind] == [
        "timeout", "too_slow", "output_truncated", "missing_module", "import_error", "disk_quota", "skipped",
        "refused", "handed_in_twice", "not_graded"]
    assert NoteKind.TOO_SLOW == "too_slow" and f"{NoteKind.TOO_SLOW}" == str(NoteKind.TOO_SLOW) == "too_slow"
    assert Note("timeout", "x") == Note(NoteKind.TIMEOUT, "x") and Note("timeout", "x").kind is NoteKind.TIMEOUT


@pytest.mark.parametrize("note", [{"kind": "a_kind_of_a_newer_version", "detail": "x"}, {"kind": "timeout"},
                                  {"kind": "timeout", "detail": None}, {"kind": "timeout", "detail": "x", "at": 1},
                                  ["timeout", "x"], "timeout"])
def test_a_note_this_version_cannot_read_is_refused(note):
    with pytest.raises(ValueError):
        Note.from_dict(note)
    with pytest.raises(ValueError):
        SubmissionResult.from_dict({"student": "alice", "exercises": [], "notes": [note]})


def test_a_note_is_frozen():
    note = Note(NoteKind.SKIPPED, "notes.txt")
    with pytest.raises(AttributeError):
        note.detail = "other"  # type: ignore[misc]
