"""Issue 22 item 7: a submission whose grading found the temp folder's disk full is graded again after the
others (the hand-in that filled it is gone by then); it fails only if the disk is still full then."""
from __future__ import annotations

import errno
import importlib
from pathlib import Path

import pytest

from attnkit.grade import worker
from attnkit.grade.submissions import Entry

run = importlib.import_module("attnkit.grade.run")  # the module (attnkit.grade.run is also a function)


class Results:
    def __init__(self, done):
        self.done = iter(done)

    def next(self, timeout=None):
        return next(self.done)


class Pool:
    """Grades in this process: ``full`` names the students whose disk is full on their first try."""

    def __init__(self, full: set[str]):
        self.full, self.tried = set(full), []

    def imap_unordered(self, grade, tasks, chunksize=1):
        done = []
        for task in tasks:
            student = task.entry.student
            self.tried.append(student)
            if student in self.full:
                self.full.discard(student)
                done.append(worker.Done(student, worker.DISK_FULL, 0.0, 0.0, "the temp folder's disk was full"))
            else:
                done.append(worker.Done(student, worker.GRADED, 1.0, 1.0))
        return Results(done)


class Shown:
    def __init__(self):
        self.advanced = []

    def advance(self, student, *args):
        self.advanced.append(student)

    def tick(self):
        pass


def tasks(*students):
    return [worker.Task(Entry(s, Path(s), "folder"), "", Path("out"), "v", ("softmax",)) for s in students]


def test_a_classmate_is_graded_again_after_a_full_disk(monkeypatch):
    monkeypatch.setattr(run, "_show_current", lambda current, shown: None)
    pool, shown, errors = Pool({"bob"}), Shown(), {}
    again = run._grade_round(pool, tasks("alice", "bob", "carol"), None, shown, errors, last=False)
    run._grade_round(pool, again, None, shown, errors, last=True)
    assert pool.tried == ["alice", "bob", "carol", "bob"] and errors == {}
    assert sorted(shown.advanced) == ["alice", "bob", "carol"]


def test_a_disk_still_full_on_the_last_round_is_the_graders_error(monkeypatch):
    monkeypatch.setattr(run, "_show_current", lambda current, shown: None)
    pool, errors = Pool({"bob"}), {}
    run._grade_round(pool, tasks("bob"), None, Shown(), errors, last=True)
    assert "disk was full" in errors["bob"]


def test_a_full_disk_during_a_check_is_not_a_check_result():
    from grader.runner import CheckSpec, execute

    def check(impl):
        raise OSError(errno.ENOSPC, "No space left on device")

    spec = CheckSpec("softmax", "test_x", "x", 1, 1.0, "visible", check, ("impl",))
    with pytest.raises(OSError):
        execute(spec, impl=None)
