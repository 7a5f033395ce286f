"""The checks on the reference solutions (full marks) and on the untouched stubs (all "not implemented yet")."""
import inspect

import pytest

from grader import curriculum
from grader.results import NOT_IMPLEMENTED, PASSED
from grader.runner import discover
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


def test_points_per_exercise_match_the_curriculum():
    totals = {exercise: sum(spec.points for spec in discover(exercise)) for exercise in curriculum.ids()}
    assert totals == {e.id: e.points for e in curriculum.exercises()}


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_every_exercise_scores_its_dtypes_in_one_check(exercise):
    """Value checks judge values only; the dtype problem of a result costs this one check (issue 11)."""
    assert [spec.name for spec in discover(exercise) if spec.name.endswith("_dtypes")] == [f"test_{exercise}_dtypes"]


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_every_check_is_well_formed(exercise):
    specs = discover(exercise)
    assert 4 <= len(specs) <= 10  # at most 8 on the values, plus the dtype check and the inputs-untouched check
    tasks = {task.number for task in curriculum.get(exercise).tasks}
    used = set()
    for spec in specs:
        doc = inspect.getdoc(spec.function)
        assert doc and doc.splitlines()[0].strip(), f"{spec.name} has no docstring title"
        assert spec.title == doc.splitlines()[0]
        assert spec.points > 0
        assert spec.task in tasks, f"{spec.name}: task {spec.task} is not in curriculum.yaml"
        assert set(spec.fixtures) <= {"impl", "ref", "rng"}
        used.add(spec.task)
    assert used == tasks, f"{exercise}: every task has at least one check"


def test_every_mistake_has_a_readable_diagnosis():
    from grader.mistakes import all_mistakes

    found = all_mistakes()
    assert len(found) >= 30
    for mistake_id, mistake in found.items():
        assert mistake.id == mistake_id
        assert mistake.looks_like and not mistake.looks_like.endswith(".")
        assert mistake.hint.strip()
