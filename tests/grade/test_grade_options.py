"""Issue 22 item 10: every option and input file is checked up front (exit 2, one line saying what to change),
and the run's sockets live at a path short enough for a Unix socket address whatever TMPDIR is."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader import files
from tests.grade.gradekit import REPO, copy_modules, run_cli

SOLUTIONS = REPO / "solutions"


@pytest.mark.parametrize("option, value, says", [
    ("--timeout", "nan", "--timeout must be a number of seconds"),
    ("--timeout", "inf", "--timeout must be a number of seconds"),
    ("--timeout", "0", "--timeout must be a number of seconds"),
    ("--student-timeout", "nan", "--student-timeout must be a number of seconds"),
    ("--memory-mb", "99999999999999", "--memory-mb must be between"),
    ("--memory-mb", "10", "--memory-mb must be between"),
])
def test_a_limit_no_child_could_run_under_is_refused(tmp_path, option, value, says):
    copy_modules(SOLUTIONS, tmp_path / "class" / "alice")
    done = run_cli(str(tmp_path / "class"), "--out", str(tmp_path / "out"), option, value)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_a_course_file_nested_too_deep_is_one_line(tmp_path):
    copy_modules(SOLUTIONS, tmp_path / "class" / "alice")
    course = tmp_path / "course.yaml"
    course.write_text("[" * 2000 + "]" * 2000 + "\n")
    done = run_cli(str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--exercises", str(course))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "nests its lists or mappings too deeply" in done.stderr.strip().splitlines()[-1]  # after the usage


@pytest.fixture
def long_temp():
    """A temp folder whose path (over 120 bytes) leaves no room for a Unix socket's address below it."""
    base = Path(tempfile.mkdtemp(prefix="attnkit-long-", dir="/tmp"))
    deep = base / ("t" * 60) / ("u" * 60)
    deep.mkdir(parents=True)
    for folder in (base, deep.parent, deep):
        os.chmod(folder, 0o755)
    yield deep
    files.remove(base)


def test_a_long_temp_folder_path_grades(tmp_path, long_temp):
    deep = long_temp
    copy_modules(SOLUTIONS, tmp_path / "class" / "alice")
    done = subprocess.run([sys.executable, "-m", "attnkit.grade", str(tmp_path / "class"), "--out",
                           str(tmp_path / "out"), "--exercises", "softmax", "--no-progress", "--jobs", "2"],
                          capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=dict(os.environ, TMPDIR=str(deep)))
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "out" / "alice.json").exists()
    assert os.listdir(deep) == []


def test_no_pictures_draws_none_and_removes_those_an_earlier_run_drew_for_other_grades(tmp_path):
    """``--no-pictures``: no PNG and no line about them in summary.txt; the pictures of an earlier run go when the
    grades they showed changed (they would mislead), and stay while the grades are the same."""
    pytest.importorskip("matplotlib")
    from attnkit.show.class_summary import MISTAKES_PNG, SCORES_PNG

    copy_modules(SOLUTIONS, tmp_path / "class" / "alice")
    out, pictures = tmp_path / "out", [tmp_path / "out" / SCORES_PNG, tmp_path / "out" / MISTAKES_PNG]
    args = (str(tmp_path / "class"), "--out", str(out), "--exercises", "softmax", "--no-progress")
    assert run_cli(*args, "--no-pictures").returncode == 0
    assert not any(p.exists() for p in pictures) and ".png" not in (out / "summary.txt").read_text()
    assert run_cli(*args).returncode == 0
    assert all(p.is_file() for p in pictures)
    assert run_cli(*args, "--no-pictures").returncode == 0   # nothing to regrade: the same grades, pictures kept
    assert all(p.is_file() for p in pictures)
    copy_modules(SOLUTIONS, tmp_path / "class" / "bob")       # a new student: other grades
    assert run_cli(*args, "--no-pictures").returncode == 0
    assert not any(p.exists() for p in pictures)
