"""The class step ``plan``: every hand-in hashed, the ones with an up-to-date record skipped (resume)."""
from __future__ import annotations

import json

import pytest

from attnkit.grade import records
from attnkit.grade.state import Stop
from attnkit.grade.steps import find, plan
from grader.results import Note, NoteKind, SubmissionResult
from tests.grade.steps.stepkit import SOLUTIONS, copy_modules, course


@pytest.fixture
def found(tmp_path):
    root = tmp_path / "class"
    copy_modules(SOLUTIONS, root / "alice")
    copy_modules(SOLUTIONS, root / "bob")
    return find.find(course(root, tmp_path / "out", exercises=("softmax",)))


def test_every_hand_in_becomes_a_task_of_the_course(found):
    planned = plan.plan(found)
    assert [t.entry.student for t in planned.tasks] == ["alice", "bob"] and planned.skipped == 0
    assert planned.exercises == ("softmax",)
    assert {t.version for t in planned.tasks} == {records.grader_version() + " exercises=softmax"}
    assert planned.tasks[0].submission_hash == planned.tasks[1].submission_hash  # the same files


def save(found, **changes) -> None:
    """alice's files as the report step leaves them for this hand-in (a timeout noted), with ``changes``."""
    first = plan.plan(found).tasks[0]
    record = SubmissionResult("alice", notes=[Note(NoteKind.TIMEOUT, "softmax: softmax(x) stopped after 10 s")])
    records.gradescope_path(found.out, "alice").write_text("{}")
    records.record_path(found.out, "alice").write_text(json.dumps(
        {**record.to_dict(), "submission_hash": first.submission_hash, "grader_version": first.version, **changes}))


def test_a_hand_in_with_an_up_to_date_record_is_skipped(found):
    save(found)
    planned = plan.plan(found)
    assert [t.entry.student for t in planned.tasks] == ["bob"] and planned.skipped == 1


@pytest.mark.parametrize("notes", [[{"kind": "a_kind_of_a_newer_version", "detail": "softmax"}],
                                   [{"kind": "timeout", "detail": 3}], [{"kind": "timeout"}], ["timeout"], 7])
def test_a_record_whose_notes_this_version_cannot_read_is_graded_again(found, notes):
    """A record of a newer version (a note kind this one does not know) or a damaged one, with this run's hash and
    version: out of date, never a crash of the run."""
    save(found, notes=notes)
    planned = plan.plan(found)
    assert [t.entry.student for t in planned.tasks] == ["alice", "bob"] and planned.skipped == 0


@pytest.mark.parametrize("damage", [{"exercises": None}, {"exercises": [{"checks": []}]}, {"exercises": [7]},
                                    {"exercises": [{"exercise": "softmax", "checks": [{"name": "x"}]}]}])
def test_a_damaged_record_is_graded_again(found, damage):
    save(found, **damage)
    assert [t.entry.student for t in plan.plan(found).tasks] == ["alice", "bob"]


def test_a_changed_hand_in_is_graded_again(found):
    save(found)
    with open(found.submissions / "alice" / "softmax.py", "a") as handle:
        handle.write("\n# changed\n")
    assert [t.entry.student for t in plan.plan(found).tasks] == ["alice", "bob"]


def test_an_unreadable_hand_in_is_still_graded(found, monkeypatch):
    def unreadable(entry):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(plan, "content_hash", unreadable)
    planned = plan.plan(found)
    assert [t.submission_hash for t in planned.tasks] == ["unreadable: [Errno 13] Permission denied"] * 2


def test_checks_that_cannot_be_loaded_stop_the_run(found, monkeypatch):
    def broken(exercise):
        raise ImportError("no module named checks_softmax")

    monkeypatch.setattr("grader.runner.discover", broken)
    with pytest.raises(Stop, match="the grader's checks could not be loaded") as raised:
        plan.plan(found)
    assert raised.value.status == 1
