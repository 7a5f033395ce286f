"""Cutting solution modules into notebook cells (attnkit/nbgrader/sources.py), on small made-up solutions."""
from __future__ import annotations

import pytest

import attnkit.nbgrader as command
from attnkit.nbgrader import notebook, sources

SOFTMAX = '''"""Made-up softmax module."""
import numpy as np

SHIFT = 0.0


def _shift(x):
    """A private helper."""
    ### BEGIN SOLUTION subtract the max
    return x - x.max(axis=-1, keepdims=True) + SHIFT
    ### END SOLUTION


# the task's own definition
def softmax(x, axis=-1):
    """Softmax."""
    ### BEGIN SOLUTION implement softmax
    e = np.exp(_shift(x))
    return e / e.sum(axis=axis, keepdims=True)
    ### END SOLUTION


TRAILING = 1
'''

MASKING = '''"""Made-up masking."""
import numpy as np


def apply_mask(scores, mask):
    ### BEGIN SOLUTION mask it
    return np.where(mask, scores, -np.inf)
    ### END SOLUTION
'''

ATTENTION = '''"""Made-up attention."""
import math

from .masking import apply_mask
from .softmax import softmax


def scaled_dot_product_attention(Q, K, V, mask=None):
    ### BEGIN SOLUTION attend
    return softmax(apply_mask(Q @ K.T / math.sqrt(Q.shape[-1]), mask)) @ V, None
    ### END SOLUTION


def self_attention(X, W_Q, W_K, W_V, mask=None):
    ### BEGIN SOLUTION project
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
    ### END SOLUTION
'''


@pytest.fixture
def solutions(tmp_path):
    for name, text in (("softmax", SOFTMAX), ("masking", MASKING), ("attention", ATTENTION)):
        (tmp_path / f"{name}.py").write_text(text)
    return tmp_path


def test_statements_that_define_no_task_go_with_a_task(solutions):
    code = sources.exercise_code("softmax", solutions)
    (part,) = code.tasks
    assert part.name == "softmax"
    assert part.code.startswith("SHIFT = 0.0\n\n\ndef _shift(x):")
    assert "# the task's own definition\ndef softmax" in part.code
    assert part.code.rstrip().endswith("TRAILING = 1")
    assert code.imports == ("import numpy as np",) and code.helpers == ()
    assert code.docstring == "Made-up softmax module."


def test_markers_become_nbgraders_with_the_todo_above(solutions):
    part = sources.exercise_code("masking", solutions).tasks[2]
    assert part.code.splitlines()[1:5] == ["    # TODO: mask it", "    ### BEGIN SOLUTION",
                                           "    return np.where(mask, scores, -np.inf)", "    ### END SOLUTION"]
    assert sources.strip_solution_markers(part.code).splitlines()[1:3] == [
        "    # TODO: mask it", "    return np.where(mask, scores, -np.inf)"]


def test_sibling_definitions_come_transitively_and_in_dependency_order(solutions):
    code = sources.exercise_code("attention", solutions)
    assert [(d.module, d.name) for d in code.helpers] == [("masking", "apply_mask"), ("softmax", "SHIFT"),
                                                          ("softmax", "_shift"), ("softmax", "softmax")]
    assert sorted(code.imports) == ["import math", "import numpy as np"]


def test_given_code_without_a_solution_region_is_a_read_only_cell(solutions):
    cells = {c["metadata"]["nbgrader"]["grade_id"]: c for c in notebook.build("attention", solutions)["cells"]}
    assert cells["earlier_SHIFT"]["metadata"]["nbgrader"]["locked"] is True
    assert cells["earlier_SHIFT"]["metadata"]["nbgrader"]["solution"] is False
    assert cells["earlier__shift"]["metadata"]["nbgrader"]["solution"] is True


def test_tasks_without_a_definition_have_no_code(solutions):
    tasks = sources.exercise_code("masking", solutions).tasks
    assert [(t.task.name, bool(t.code)) for t in tasks] == [("causal_mask", False), ("padding_mask", False),
                                                            ("apply_mask", True)]


@pytest.mark.parametrize("line", ["from .softmax import softmax as sm", "from . import softmax",
                                  "from ..softmax import softmax"])
def test_unsupported_relative_imports_are_refused(solutions, line):
    (solutions / "attention.py").write_text(ATTENTION.replace("from .softmax import softmax", line))
    with pytest.raises(sources.SourceError, match="relative imports"):
        sources.load("attention", solutions)


def test_unpaired_markers_are_refused(solutions):
    (solutions / "masking.py").write_text(MASKING.replace("    ### END SOLUTION\n", ""))
    with pytest.raises(sources.SourceError, match="never closed"):
        sources.load("masking", solutions)


def test_an_import_of_a_missing_definition_is_refused(solutions):
    (solutions / "masking.py").write_text(MASKING.replace("def apply_mask", "def other_mask"))
    with pytest.raises(sources.SourceError, match="no top-level definition named 'apply_mask'"):
        sources.exercise_code("attention", solutions)


def test_the_command_reports_unusable_solutions(tmp_path, monkeypatch, capsys):
    def broken(exercise_id):
        raise sources.SourceError("solutions/softmax.py:3: BEGIN SOLUTION needs the TODO text after it")

    monkeypatch.setattr(notebook, "exercise_code", broken)
    assert command.main(["export", str(tmp_path / "c")]) == 1
    assert capsys.readouterr().err.strip() == command.BAD_SOLUTIONS.format(
        reason="solutions/softmax.py:3: BEGIN SOLUTION needs the TODO text after it")
    assert not (tmp_path / "c").exists()
