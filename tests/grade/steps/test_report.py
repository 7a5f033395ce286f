"""The submission step ``report``: the Gradescope JSON, then the record (the commit marker), the same every time."""
from __future__ import annotations

import errno
import json

import pytest

from attnkit.grade import gradescope_results, records
from attnkit.grade.steps import report
from grader import atomic
from grader.results import FAILED, CheckResult, ExerciseResult, Note, NoteKind, SubmissionResult
from tests.grade.steps.stepkit import submission


def graded(student: str = "alice") -> SubmissionResult:
    check = CheckResult("softmax", "test_sum", "sums to 1", 1, 0.0, 2.0, FAILED,
                        message='File "softmax.py", line 3: wrong', seconds=1.25)  # the session stripped its paths
    return SubmissionResult(student, [ExerciseResult("softmax", [check])],
                            notes=[Note(NoteKind.IMPORT_ERROR, "softmax.py: SyntaxError")])


def test_both_files_are_written_record_last(tmp_path, monkeypatch):
    written = []
    monkeypatch.setattr(atomic, "write_json", lambda path, data: written.append(path) or path.write_text(
        json.dumps(data)))
    out = tmp_path / "out"
    records.record_dir(out).mkdir(parents=True)
    report.report(submission(tmp_path / "alice", out, result=graded()))
    assert written == [records.gradescope_path(out, "alice"), records.record_path(out, "alice")]
    record = records.load(out, "alice")
    assert record["submission_hash"] == "hash-1" and record["grader_version"] == "v-1"
    assert records.up_to_date(out, "alice", "hash-1", "v-1")


def test_the_time_each_check_took_is_dropped(tmp_path):
    out = tmp_path / "out"
    records.record_dir(out).mkdir(parents=True)
    report.report(submission(tmp_path / "alice", out, result=graded()))
    record = records.load(out, "alice")
    check = record["exercises"][0]["checks"][0]
    assert check["seconds"] == 0.0 and check["message"] == 'File "softmax.py", line 3: wrong'
    assert record["notes"] == [{"kind": "import_error", "detail": "softmax.py: SyntaxError"}]
    expected = graded()
    report.normalize(expected)
    assert json.loads(records.gradescope_path(out, "alice").read_text()) == gradescope_results.results_json(expected)


def test_no_record_when_the_gradescope_file_cannot_be_written(tmp_path, monkeypatch):
    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    out = tmp_path / "out"
    records.record_dir(out).mkdir(parents=True)
    monkeypatch.setattr(atomic, "write_json", full)
    with pytest.raises(OSError):
        report.report(submission(tmp_path / "alice", out, result=graded()))
    assert not records.record_path(out, "alice").exists()
