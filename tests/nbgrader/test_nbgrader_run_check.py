"""``grader.notebook.run_check``: the kit's checks run against a notebook's globals (in-process, no Jupyter)."""
from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

from grader import curriculum, notebook
from grader.runner import discover
from tests.nbgrader.nbgraderkit import REPO


def namespace_of(package: str) -> dict:
    """What a notebook's globals hold once every answer cell of ``package`` (solutions/exercises) has run."""
    names: dict = {}
    for exercise in curriculum.exercises():
        module = importlib.import_module(f"{package}.{exercise.id}")
        names.update({k: v for k, v in vars(module).items() if not k.startswith("_")})
    return names


def cell_namespace(code: str, filename: str = "/tmp/ipykernel_4242/123456.py") -> dict:
    """Run ``code`` as IPython runs a cell (its frames carry the kernel's cell file name)."""
    names: dict = {"np": np}
    exec(compile(code, filename, "exec"), names)
    return names


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_reference_definitions_pass_every_check(exercise, capsys):
    names = namespace_of("solutions")
    for spec in discover(exercise):
        assert notebook.run_check(exercise, spec.name, names) is None  # a value would be partial credit
    out = capsys.readouterr()
    assert out.out.count("passed (") == len(discover(exercise)) and out.err == ""


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_untouched_stubs_fail_every_check_as_not_implemented(exercise):
    names = namespace_of("exercises")
    for spec in discover(exercise):
        with pytest.raises(notebook.NotebookCheckFailed) as failure:
            notebook.run_check(exercise, spec.name, names)
        assert str(failure.value).startswith(notebook.NOT_IMPLEMENTED_HEADER.format(
            points=spec.points, unit="point" if spec.points == 1 else "points", title=spec.title))
        assert isinstance(failure.value, AssertionError)


SEED_SOFTMAX = """
def softmax(x, axis=-1):
    return np.exp(x) / np.sum(np.exp(x), axis=axis, keepdims=True)   # 000's version: no max subtraction
"""


def test_a_classic_mistake_is_diagnosed_with_a_hint():
    names = cell_namespace(SEED_SOFTMAX)
    notebook.run_check("softmax", "test_softmax_document_weights", names)  # small scores: fine
    with pytest.raises(notebook.NotebookCheckFailed) as failure:
        notebook.run_check("softmax", "test_softmax_huge_inputs", names)
    text = str(failure.value)
    assert text.splitlines()[0].startswith("failed (0/2 points): softmax stays finite")
    assert "looks like" in text and "\n  hint: " in text
    assert notebook.MORE_HELP.format(exercise="softmax", task=1) in text
    assert failure.value.result.mistake


def test_a_name_the_notebook_never_defined():
    with pytest.raises(notebook.NotebookCheckFailed) as failure:
        notebook.run_check("masking", "test_causal_mask_sizes", {"np": np})
    assert notebook.NOT_DEFINED.format(name="causal_mask") in str(failure.value)


def test_an_unknown_check_names_the_known_ones():
    with pytest.raises(KeyError) as failure:
        notebook.run_check("softmax", "test_nothing", {})
    assert "test_softmax_huge_inputs" in str(failure.value)


def test_the_students_exception_is_reported_with_its_cell_line():
    names = cell_namespace("def causal_mask(n):\n    x = 1\n    raise ValueError('no masks today')\n")
    with pytest.raises(notebook.NotebookCheckFailed) as failure:
        notebook.run_check("masking", "test_causal_mask_matches_document", names)
    assert "raised ValueError: no masks today" in str(failure.value)
    assert notebook.CELL_LOCATION.format(line=3) in str(failure.value)


def test_arguments_are_copies_and_results_are_plain_values():
    """As across the sandbox's wire: the student's function cannot change the check's arrays."""
    seen = {}

    def scale(x):
        seen["x"] = x
        x *= 0
        return x

    impl = notebook.implementation({"scale": scale}, "softmax")
    original = np.arange(4.0)
    result = impl.softmax.scale(original)
    assert np.array_equal(original, np.arange(4.0)) and seen["x"] is not original
    assert np.array_equal(result, np.zeros(4)) and result is not seen["x"]


def test_objects_stay_behind_handles():
    names = namespace_of("solutions")
    cache = notebook.implementation(names, "kv_cache").kv_cache.KVCache()
    cache.append(np.ones(2), np.zeros(3))
    assert len(cache) == 1 and cache.keys.shape == (1, 2)
    assert type(cache).__name__ == "RemoteObject"


def test_warnings_do_not_reach_stderr(capsys):
    """nbgrader scores a test cell 0 when it wrote anything to stderr."""
    names = namespace_of("solutions")
    noisy = dict(names)

    def causal_mask(n):
        warnings.warn("a student's warning", UserWarning, stacklevel=2)
        return names["causal_mask"](n)

    noisy["causal_mask"] = causal_mask
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        notebook.run_check("masking", "test_causal_mask_sizes", noisy)
    assert shown == [] and capsys.readouterr().err == ""


def test_the_namespace_is_not_modified():
    names = namespace_of("solutions")
    before = dict(names)
    notebook.run_check("attention", "test_sdpa_with_mask", names)
    assert names == before


def test_grader_notebook_does_not_import_the_solutions_by_itself():
    """The notebook API is importable without touching the reference until a check needs it."""
    import subprocess
    import sys

    script = "import sys, grader.notebook; print(sorted(m for m in sys.modules if m.startswith('solutions')))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
