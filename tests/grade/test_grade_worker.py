"""A grading worker's answer to the parent (:class:`attnkit.grade.worker.Done`) for each way a hand-in's steps end."""
from __future__ import annotations

import errno
from pathlib import Path

import pytest

from attnkit.grade import pipeline, worker
from attnkit.grade.state import Submission, Task
from attnkit.grade.steps.result import refused
from attnkit.grade.submissions import Entry
from grader.results import SubmissionResult

TASK = Task(Entry("alice", Path("alice"), "folder"), "hash", Path("out"), "v", ("softmax",))


def ending(monkeypatch, outcome) -> worker.Done:
    def steps(task):
        if isinstance(outcome, BaseException):
            raise outcome
        return Submission(task, result=outcome)

    monkeypatch.setattr(pipeline, "grade_submission", steps)
    return worker.grade(TASK)


def test_a_graded_hand_in_reports_its_score(monkeypatch):
    done = ending(monkeypatch, SubmissionResult("alice", []))
    assert done == worker.Done("alice", worker.GRADED, 0.0, 0.0, "")


def test_a_refused_hand_in_reports_the_refusal(monkeypatch):
    done = ending(monkeypatch, refused("alice", "alice is a symbolic link", ("softmax",)))
    assert done.status == worker.REFUSED and done.score == 0 < done.max_score
    assert done.message.startswith("refused: alice is a symbolic link")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_a_full_disk_is_graded_again(monkeypatch, code):
    done = ending(monkeypatch, OSError(code, "No space left on device"))
    assert done.status == worker.DISK_FULL and "disk was full" in done.message


@pytest.mark.parametrize("failure", [OSError(errno.EIO, "Input/output error"), RuntimeError("a bug of ours")])
def test_any_other_failure_is_the_grader_s_error(monkeypatch, failure):
    done = ending(monkeypatch, failure)
    assert done.status == worker.FAILED and done.message.startswith(f"internal error: {type(failure).__name__}")
