"""Every documented convention has a public check (issue 23 item 3): the result's dtype, the inputs left
untouched and each documented ValueError are judged by a visible check of every exercise that has them, so
``attnkit check`` in the release tests the rules ``attnkit grade`` takes points for; a hidden check judges a rule
some visible check of its exercise judges too (other inputs, not other rules)."""
import ast
from pathlib import Path

import pytest

from grader import curriculum
from grader.checks.marks import RULES
from grader.runner import discover

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
NAMED = {"dtype": ("dtypes",), "untouched": ("untouched",), "raises": ("rejects", "needs_equal"), "memory": ("memory",)}


def raises_value_error(module: str) -> bool:
    tree = ast.parse((SOLUTIONS / f"{module}.py").read_text())
    return any(isinstance(node, ast.Raise) and getattr(getattr(node.exc, "func", None), "id", "") == "ValueError"
               for node in ast.walk(tree))


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_each_documented_convention_has_a_visible_check(exercise):
    specs = discover(exercise)
    visible = {spec.rule for spec in specs if spec.visibility == "visible"}
    wanted = {"values", "dtype"} | ({"untouched"} if exercise != "kv_cache" else set())  # KVCache keeps copies
    if raises_value_error(curriculum.get(exercise).id):
        wanted.add("raises")
    assert wanted <= visible, f"{exercise}: no visible check for {sorted(wanted - visible)}"
    hidden = {spec.rule for spec in specs if spec.visibility == "hidden"}
    assert hidden <= visible, f"{exercise}: hidden checks judge {sorted(hidden - visible)}, which no visible one does"


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_a_checks_rule_matches_its_name(exercise):
    for spec in discover(exercise):
        assert spec.rule in RULES
        named = [rule for rule, words in NAMED.items() if any(word in spec.name for word in words)]
        assert named == ([] if spec.rule == "values" else [spec.rule]), (spec.name, spec.rule)
