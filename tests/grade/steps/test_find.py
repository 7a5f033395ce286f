"""The class step ``find``: the hand-ins listed, and every way the run would stop refused before grading."""
from __future__ import annotations

import pytest

from attnkit.grade.state import UserError
from attnkit.grade.steps import find
from tests.grade.steps.stepkit import SOLUTIONS, copy_modules, course, zip_modules


@pytest.fixture
def submissions(tmp_path):
    root = tmp_path / "class"
    copy_modules(SOLUTIONS, root / "bob")
    zip_modules(SOLUTIONS, root / "alice.zip")
    (root / "notes.txt").write_text("not a hand-in")
    return root


def test_one_entry_per_student_sorted_and_the_rest_named(submissions, tmp_path):
    found = find.find(course(submissions, tmp_path / "out"))
    assert [(e.student, e.kind) for e in found.entries] == [("alice", "zip"), ("bob", "folder")]
    assert found.warnings == ["ignored notes.txt: not a folder or a .zip"]
    assert (tmp_path / "out" / ".attnkit").is_dir()


def test_the_output_folder_inside_the_class_is_no_student(submissions):
    """A re-run's OUTDIR, made inside SUBMISSIONS by the first run."""
    (submissions / "results" / ".attnkit").mkdir(parents=True)
    found = find.find(course(submissions, submissions / "results"))
    assert [e.student for e in found.entries] == ["alice", "bob"]
    assert "ignored results: it is the output folder" in found.warnings


@pytest.mark.parametrize("options, says", [
    ({"jobs": 0}, "--jobs must be at least 1"),
    ({"timeout": float("nan")}, "--timeout must be a number of seconds"),
    ({"memory_mb": 16}, "--memory-mb must be between"),
    ({"student_timeout": 0.0}, "--student-timeout must be a number of seconds"),
])
def test_an_option_no_run_could_use_is_a_user_error(submissions, tmp_path, monkeypatch, options, says):
    # --student-timeout is checked after the folders: their checks pass here whatever the machine's disk holds
    monkeypatch.setattr(find, "check_writable", lambda out, count: None)
    monkeypatch.setattr(find, "check_temp", lambda: None)
    with pytest.raises(UserError, match=says) as raised:
        find.find(course(submissions, tmp_path / "out", **options))
    assert raised.value.status == 2


def test_no_class_folder_or_an_empty_one_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="no such folder"):
        find.find(course(tmp_path / "missing", tmp_path / "out"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="holds no submissions"):
        find.find(course(tmp_path / "empty", tmp_path / "out"))


def test_a_class_file_taken_by_a_folder_is_a_user_error(submissions, tmp_path):
    (tmp_path / "out" / "grades.csv").mkdir(parents=True)
    with pytest.raises(UserError, match="is a folder, but attnkit grade writes its grades.csv there"):
        find.find(course(submissions, tmp_path / "out"))
