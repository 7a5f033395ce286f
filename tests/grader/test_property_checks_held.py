"""A bug is charged once inside an exercise too (issue 21 item 6): a property check (dtype, inputs untouched,
raises, memory) judges its property alone; while its calls return wrong values it is *held* (0 points, one line
that sends the student to the value checks), so a mistake that breaks only values costs points in value checks'
messages only, and wrong code still earns nothing (tests/grader/test_no_points_for_wrong_code.py).

The values-only mutant is generated from the reference's public names (every float result scaled by 1.001 in its
own dtype, a boolean result inverted, an int result plus one; raising, dtypes, memory and the inputs untouched as
the reference's), so an exercise added to the curriculum is covered by being there.
"""
import importlib
import inspect

import pytest

from grader import curriculum, notebook
from grader.results import Status
from grader.runner import HELD_MESSAGE, discover
from tests.grader.graderkit import copy_solutions, run

EXERCISES = curriculum.ids()
PERTURB = '''

import numpy as _np


def _perturbed(value):
    if isinstance(value, tuple):
        return tuple(_perturbed(v) for v in value)
    if isinstance(value, _np.ndarray) and value.dtype == _np.bool_:
        return ~value
    if isinstance(value, _np.ndarray) and value.dtype.kind == "f":
        return value * value.dtype.type(1.001) + value.dtype.type(1e-3)
    if isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    return value


def _wrap(function):
    def wrapped(*args, **kwargs):
        return _perturbed(function(*args, **kwargs))
    return wrapped

'''


def public(module: str) -> list[tuple[str, bool]]:
    reference = importlib.import_module(f"solutions.{module}")
    return [(name, inspect.isclass(value)) for name, value in vars(reference).items()
            if (inspect.isfunction(value) or inspect.isclass(value)) and not name.startswith("_")
            and value.__module__ == reference.__name__]


def values_only_mutant(tmp_path, exercise: str):
    """A copy of the solutions whose ``exercise`` module returns wrong values and nothing else wrong."""
    impl = copy_solutions(tmp_path)
    path = impl / f"{curriculum.get(exercise).id}.py"
    functions = [name for name, is_class in public(curriculum.get(exercise).id) if not is_class]
    path.write_text(path.read_text() + PERTURB + "".join(f"{name} = _wrap({name})\n" for name in functions))
    return impl


def class_tasks(exercise: str) -> set[int]:
    entry = curriculum.get(exercise)
    classes = {name for name, is_class in public(entry.id) if is_class}
    return {number for number, task in enumerate(entry.tasks, 1) if task.name in classes}


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_values_only_mistake_costs_points_in_value_checks_alone(tmp_path, exercise):
    result = run(values_only_mutant(tmp_path, exercise), exercise)
    rules = {spec.name: spec.rule for spec in discover(exercise)}
    judged = [c for c in result.checks if c.task not in class_tasks(exercise)]  # the class is the reference's
    failed = [c for c in judged if c.status == Status.FAILED]
    held = [c for c in judged if c.status == Status.HELD]
    assert failed, f"{exercise}: the values-only mutant failed no value check"
    assert [c.name for c in failed if rules[c.name] != "values"] == [], [c.message for c in failed]
    properties = [c for c in judged if rules[c.name] != "values"]
    assert [c.name for c in properties if c.status != Status.HELD] == [], [(c.name, c.message) for c in properties]
    for check in held:  # one line, worth nothing, naming no mistake (the value checks do)
        assert check.points == 0 and check.mistake == "" and check.hint == "" and check.wrong is None, check
        assert check.message.startswith("held: ") and "\n" not in check.message, check.message


@pytest.mark.parametrize("exercise", EXERCISES)
def test_an_exception_on_every_call_is_charged_by_the_value_checks_alone(tmp_path, exercise):
    module = curriculum.get(exercise).id
    impl = copy_solutions(tmp_path)
    path = impl / f"{module}.py"
    path.write_text(path.read_text() + "".join(  # every function raises, as the value checks see first
        f"\n\ndef {name}(*args, **kwargs):\n    raise ZeroDivisionError('always')\n"
        for name, is_class in public(module) if not is_class))
    result = run(impl, exercise)
    rules = {spec.name: spec.rule for spec in discover(exercise)}
    judged = [c for c in result.checks if c.task not in class_tasks(exercise)]
    assert [c.name for c in judged if rules[c.name] != "values" and c.status != Status.HELD] == []
    assert all(c.status == Status.FAILED for c in judged if rules[c.name] == "values")
    assert result.score == sum(c.points for c in result.checks if c.task in class_tasks(exercise))


def test_a_wrong_dtype_fails_the_dtype_check_even_when_values_are_wrong_too(tmp_path):
    impl = copy_solutions(tmp_path)
    path = impl / "softmax.py"
    path.write_text(path.read_text() + "\n\n_softmax = softmax\n\n\ndef softmax(x, axis=-1):\n"
                    "    return _softmax(np.asarray(x, dtype=np.float64), axis) * 1.001\n")
    result = run(impl, "softmax")
    dtype = next(c for c in result.checks if c.name == "test_softmax_dtypes")
    assert dtype.status == Status.FAILED and "dtype" in dtype.message, dtype
    assert "wrong values" not in dtype.message and dtype.mistake == "", dtype  # it speaks of the dtype alone


def test_a_held_check_in_a_notebook_cell_scores_nothing_in_one_line():
    reference = importlib.import_module("solutions.softmax")
    names = {"softmax": lambda x, axis=-1: reference.softmax(x, axis) * 1.001, "np": __import__("numpy")}
    result = notebook.check_result("softmax", "test_softmax_dtypes", names)
    assert result.status == Status.HELD and result.points == 0
    call = result.message.split(" returned ")[0][len("held: "):]
    assert result.message == HELD_MESSAGE.format(event=f"{call} returned wrong values", task=1,
                                                 what="the results' dtypes")
    with pytest.raises(notebook.NotebookCheckFailed) as failed:  # nbgrader pays a cell that raises nothing
        notebook.run_check("softmax", "test_softmax_dtypes", names)
    assert notebook.failure_text(failed.value.result).startswith("held (0/1 point) until the values are right")


def test_wrong_values_only_a_property_check_sees_fail_it_named_when_the_whole_exercise_runs(tmp_path):
    # a softmax that overflows on large scores: attention's value checks pass, its dtype check (large integer
    # inputs) gets wrong values; no value check charges them, so the dtype check does, once, named
    from grader.mistakes import all_mistakes, module_of
    from grader.mistakes.model import apply

    mistake = all_mistakes()["softmax_no_max_subtraction"]
    impl = copy_solutions(tmp_path)
    path = impl / f"{module_of(mistake.id)}.py"
    path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
    checks = run(impl, "attention").checks
    rules = {spec.name: spec.rule for spec in discover("attention")}
    assert all(c.status == Status.PASSED for c in checks if rules[c.name] == "values")
    (dtype,) = [c for c in checks if c.status != Status.PASSED]
    assert rules[dtype.name] == "dtype" and dtype.status == Status.FAILED and dtype.mistake, dtype
