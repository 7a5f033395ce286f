"""Helpers of the step tests: a task for one hand-in, a course, hand-ins built from solutions/."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from attnkit.grade.state import Course, Options, Submission, Task
from attnkit.grade.submissions import Entry

REPO = Path(__file__).resolve().parents[3]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
COURSE = ("softmax",)


def copy_modules(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for path in sorted(source.glob("*.py")):
        shutil.copyfile(path, target / path.name)
    return target


def zip_modules(source: Path, archive: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(source.glob("*.py")):
            zipped.write(path, prefix + path.name)
    return archive


def task(path: Path, out: Path, kind: str = "folder", student: str = "alice",
         exercises: tuple[str, ...] = COURSE) -> Task:
    return Task(Entry(student, path, kind), "hash-1", out, "v-1", exercises)


def submission(path: Path, out: Path, kind: str = "folder", **changes) -> Submission:
    state = Submission(task(path, out, kind))
    for name, value in changes.items():
        setattr(state, name, value)
    return state


def course(submissions: Path, out: Path, **options) -> Course:
    chosen = {"jobs": 1, "timeout": 2.0, "memory_mb": 1024, "student_timeout": 60.0, **options}
    return Course(submissions, out, Options(**chosen))
