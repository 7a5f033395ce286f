"""The class step ``gradebook``: the class files from every record in OUTDIR; a missing record is an error."""
from __future__ import annotations

import errno
import json

import pytest

from attnkit.grade import records, summary
from attnkit.grade.state import Stop, Submission
from attnkit.grade.steps import gradebook, report, result
from attnkit.grade.submissions import Entry
from tests.grade.steps.stepkit import course, task


@pytest.fixture
def graded_class(tmp_path):
    """alice and bob refused (records written by the report step), carol without a record."""
    out = tmp_path / "out"
    (out / ".attnkit").mkdir(parents=True)
    for student in ("alice", "bob"):
        state = Submission(task(tmp_path / student, out, student=student), refusal=f"{student} is a symbolic link")
        report.report(result.result(state))
    state = course(tmp_path / "class", out, exercises=("softmax",), pictures=False)
    state.entries = [Entry(s, tmp_path / s, "folder") for s in ("alice", "bob", "carol")]
    state.exercises = ("softmax",)
    return state


def test_the_class_files_hold_every_record_and_the_missing_one(graded_class):
    done = gradebook.gradebook(graded_class)
    out = graded_class.out
    assert done.errors == {"carol": "no result was written"}
    rows = (out / "grades.csv").read_text().splitlines()
    assert rows[0] == "student,score,max_score,softmax,note" and [r.split(",")[0] for r in rows[1:]] == [
        "alice", "bob", "carol"]
    assert rows[3] == "carol,,,,not graded (the grader failed; re-run to retry)"
    assert (out / "summary.txt").read_text() == done.text and (out / "report.html").is_file()
    assert done.text.startswith("0 of 3 submissions graded (2 refused")


def test_a_record_this_version_cannot_read_is_a_student_not_graded(graded_class):
    """Changed since the run planned (plan grades such a record again): a row saying so, the class files written."""
    path = records.record_path(graded_class.out, "bob")
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "notes": [{"kind": "a_kind_of_a_newer_version", "detail": "x"}]}))
    done = gradebook.gradebook(graded_class)
    assert done.errors == {"bob": "its record could not be read back (damaged, or written by another version)",
                           "carol": "no result was written"}
    assert "bob,,,,not graded (the grader failed; re-run to retry)" in (graded_class.out / "grades.csv").read_text()


def test_a_student_the_workers_failed_on_stays_failed(graded_class):
    graded_class.errors["alice"] = "internal error: RuntimeError: boom"
    done = gradebook.gradebook(graded_class)
    assert done.errors == {"alice": "internal error: RuntimeError: boom", "carol": "no result was written"}


def test_class_files_that_cannot_be_written_stop_the_run(graded_class, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(summary, "write_all", full)
    with pytest.raises(Stop, match="every graded student is saved in") as raised:
        gradebook.gradebook(graded_class)
    assert raised.value.status == 1
