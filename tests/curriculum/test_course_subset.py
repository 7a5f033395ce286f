"""A course's subset of the exercises (``--exercises``): every instructor verb follows it, points included (the
Gradescope bundle of a subset, built and run: tests/gradescope/test_gradescope_bundle.py)."""
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import curriculum

ROOT = Path(__file__).resolve().parents[2]
COURSE = ("softmax", "masking")


def attnkit(*args, cwd: Path = ROOT, path: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, ATTNKIT_HOME=str(Path(cwd) / ".attnkit-home"))
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-m", "attnkit", *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    if check and done.returncode != 0:
        command = " ".join(map(str, args))
        raise AssertionError(f"attnkit {command} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done


@pytest.fixture(scope="module")
def course_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("course") / "course.yaml"
    path.write_text("exercises: [masking, softmax]\n", encoding="utf-8")
    return path


def test_grade_scores_the_course_only(course_file, tmp_path):
    submissions = tmp_path / "submissions"
    shutil.copytree(ROOT / "solutions", submissions / "alice" / "exercises",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "exercises", submissions / "bob" / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    attnkit("grade", submissions, "--out", tmp_path / "out", "--jobs", "1", "--no-progress", "--exercises", course_file)
    rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open()))
    total = curriculum.total_points(COURSE)
    assert list(rows[0]) == ["student", "score", "max_score", *COURSE, "note"]
    assert {row["student"]: (float(row["score"]), float(row["max_score"])) for row in rows} == {
        "alice": (total, total), "bob": (0, total)}
    assert [e["exercise"] for e in json.loads((tmp_path / "out" / "summary.json").read_text())["exercises"]] == \
        list(COURSE)


def test_the_release_ships_the_course_only(tmp_path):
    attnkit("release", tmp_path / "student", "--exercises", ",".join(COURSE))
    student = tmp_path / "student"
    assert sorted(p.stem for p in (student / "exercises").glob("*.py")) == ["__init__", *sorted(COURSE)]
    assert sorted(p.stem for p in (student / "grader" / "checks").glob("check_*.py")) == sorted(
        f"check_{e}" for e in COURSE)
    checked = attnkit("check", cwd=student, path=student, check=False)
    assert [line.split()[1] for line in checked.stdout.splitlines() if line.startswith("TODO")] == list(COURSE)
    attnkit("quiz", "validate", cwd=student, path=student)  # banks of left-out exercises and their mistakes dropped


def test_the_release_refuses_an_exercise_without_what_it_builds_on(tmp_path):
    done = attnkit("release", tmp_path / "student", "--exercises", "multihead", check=False)
    assert done.returncode == 2 and "multihead builds on attention" in done.stderr
    assert not (tmp_path / "student").exists()
