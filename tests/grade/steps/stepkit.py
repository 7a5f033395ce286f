"""Helpers of the step tests: a task for one hand-in, a course, hand-ins built from solutions/."""
from __future__ import annotations

from pathlib import Path

from attnkit.grade.state import Course, Options, Submission, Task
from attnkit.grade.submissions import Entry
from tests.grade.gradekit import copy_modules, zip_modules  # noqa: F401  (the step tests import them from here)

REPO = Path(__file__).resolve().parents[3]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
COURSE = ("softmax",)


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
