"""Every exercise meets every rule of attnkit/devcheck/rules.py, the course leaves no file unclaimed, and
docs/adding-an-exercise.md states every rule (the rules themselves are tested on the toy exercise:
test_toy_exercise.py breaks each one)."""
from pathlib import Path

import pytest

from attnkit.devcheck.course import Course
from attnkit.devcheck.rules import RULES
from grader import curriculum

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-an-exercise.md"


@pytest.fixture(scope="module")
def course():
    return Course()


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_the_exercise_meets_every_rule(course, exercise):
    assert [str(problem) for problem in course.problems((exercise,))] == []


def test_the_course_leaves_no_file_unclaimed(course):
    assert [str(problem) for problem in course.course_problems()] == []


def test_the_doc_states_every_rule():
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert [rule.id for rule in RULES if " ".join(rule.statement.split()) not in text] == []


def test_rule_ids_are_unique():
    assert len({rule.id for rule in RULES}) == len(RULES)
