"""No point for wrong code (issue 11 item 5): three implementations that are wrong everywhere score 0 in
every check, whatever the check looks at (an error it expects, a shape, a property such as row lengths).

* every function raises ValueError: "raises ValueError" checks pay only when valid calls succeed;
* every function returns zeros of the reference's shape and dtype: shape checks compare values too;
* apply_rope returns x unchanged: RoPE is compared with the reference at positions > 0.

The modules are generated from the reference's own public names, so a new exercise is covered by being
in the curriculum. They run in process (trusted test code).
"""
import importlib
import inspect

import pytest

from grader import curriculum
from grader.results import PASSED
from tests.grader.graderkit import copy_solutions, run

EXERCISES = curriculum.ids()


def public(module: str) -> list[tuple[str, bool]]:
    """(name, is a class) for the functions and classes the reference module defines."""
    reference = importlib.import_module(f"solutions.{module}")
    return [(name, inspect.isclass(value)) for name, value in vars(reference).items()
            if (inspect.isfunction(value) or inspect.isclass(value)) and not name.startswith("_")
            and value.__module__ == reference.__name__]


def always_raises(module: str) -> str:
    lines = ['"""Every function (and every constructor) raises ValueError."""\n']
    for name, is_class in public(module):
        header = f"class {name}:\n    def __init__(self, *args, **kwargs):" if is_class else \
            f"def {name}(*args, **kwargs):"
        lines.append(f"{header}\n{'    ' if is_class else ''}    raise ValueError('always')\n")
    return "\n\n".join(lines)


def zeros_of_the_right_shape(module: str) -> str:
    lines = ['"""Every function returns zeros shaped (and typed) like the reference\'s result."""',
             "import numpy as np", f"from solutions import {module} as _reference", "",
             "def _zeros(value):",
             "    if isinstance(value, tuple):",
             "        return tuple(_zeros(v) for v in value)",
             "    if isinstance(value, list):",
             "        return [_zeros(v) for v in value]",
             "    if isinstance(value, dict):  # a parameter tree",
             "        return {k: _zeros(v) for k, v in value.items()}",
             "    if isinstance(value, (int, float)) and not isinstance(value, bool):",
             "        return type(value)(0)",
             "    return np.zeros_like(value) if isinstance(value, np.ndarray) else value", ""]
    for name, is_class in public(module):
        if is_class:  # a class's methods return arrays through the checks' other calls: kept as is
            lines.append(f"{name} = _reference.{name}")
        else:
            lines.append(f"def {name}(*args, **kwargs):\n    return _zeros(_reference.{name}(*args, **kwargs))\n")
    return "\n".join(lines)


def grade(tmp_path, exercise: str, source: str):
    impl = copy_solutions(tmp_path)
    (impl / f"{curriculum.get(exercise).id}.py").write_text(source)
    return run(impl, exercise)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_always_raising_scores_nothing(tmp_path, exercise):
    result = grade(tmp_path, exercise, always_raises(curriculum.get(exercise).id))
    assert result.score == 0, [c.name for c in result.checks if c.status == PASSED]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_zeros_of_the_right_shape_score_nothing(tmp_path, exercise):
    entry = curriculum.get(exercise)
    result = grade(tmp_path, exercise, zeros_of_the_right_shape(entry.id))
    classes = {name for name, is_class in public(entry.id) if is_class}
    kept = {number for number, task in enumerate(entry.tasks, 1) if task.name in classes}  # the reference's class
    assert [c.name for c in result.checks if c.status == PASSED and c.task not in kept] == []


def test_identity_rope_scores_nothing_in_the_rope_checks(tmp_path):
    source = (copy_solutions(tmp_path / "reference") / "positional.py").read_text()
    identity = source + "\n\ndef apply_rope(x, positions=None, base=10000.0):\n    return x\n"
    result = grade(tmp_path, "positional", identity)
    rope = {c.name: c for c in result.checks if c.task == 2}
    assert set(rope) >= {"test_rope_matches_reference", "test_rope_relative_positions",
                         "test_rope_rejects_odd_dimension"}
    assert {name: c.points for name, c in rope.items()} == dict.fromkeys(rope, 0.0)
