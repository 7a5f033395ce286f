"""The checks on the reference solutions (full marks) and on the untouched stubs (all "not implemented yet")."""

import pytest

from grader import curriculum
from grader.results import NOT_IMPLEMENTED, PASSED
from tests.grader.graderkit import EXERCISES, SOLUTIONS, run


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_solutions_score_full_marks(exercise):
    result = run(SOLUTIONS, exercise)
    failures = [(c.name, c.status, c.message) for c in result.checks if c.status != PASSED]
    assert not failures
    assert result.score == result.max_score == curriculum.get(exercise).points


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_untouched_exercises_score_zero_not_implemented(exercise):
    result = run(EXERCISES, exercise)
    assert result.score == 0
    for check in result.checks:
        assert check.status == NOT_IMPLEMENTED, (check.name, check.status, check.message)
        assert check.message.startswith("not implemented yet"), check.message


