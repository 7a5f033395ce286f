"""Determinism: a check's random inputs come from ``grader.runner.seed_for`` (its name), never the clock,
so the same implementation always gets the same results, in any process, under any PYTHONHASHSEED.

(Grading the same class with --jobs 1 and --jobs 2 gives identical files: test_fault_injection.py,
on a class with classic mistakes; tests/grade/test_grade_cli.py on the standard class.)
"""
from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader import curriculum
from grader.runner import discover, execute, run_exercise, seed_for
from grader.sandbox.host.inprocess import in_process
from tests.robustness.robustkit import EXERCISES, REPO, SOLUTIONS, build_class

# grader/checks/secret.py is left out: it makes the grading machine's secret once (with ``secrets``) and keeps it in
# a file, so every run on one machine draws the same inputs (tests/hostile/test_sandbox_fixes.py covers its use)
CHECK_SOURCES = ([path for path in sorted((REPO / "grader" / "checks").glob("*.py")) if path.name != "secret.py"]
                 + sorted((REPO / "grader" / "mistakes").glob("*.py"))
                 + [REPO / "grader" / "compare.py", REPO / "grader" / "document_values.py"])
CLOCK_MODULES = {"time", "datetime", "random", "secrets", "uuid"}
ENTROPY_CALLS = {("os", "urandom"), ("os", "getrandom"), ("np", "random"), ("numpy", "random")}
SEEDED_CONSTRUCTORS = {"default_rng", "RandomState", "Generator", "PCG64", "Philox", "SFC64", "MT19937",
                       "SeedSequence"}


def all_specs():
    return [spec for exercise in curriculum.ids() for spec in discover(exercise)]


@pytest.fixture(scope="module")
def implementations(tmp_path_factory) -> dict[str, Path]:
    """The reference, the stubs, and implementations with classic mistakes (their messages carry numbers)."""
    built = build_class(tmp_path_factory.mktemp("determinism") / "class")
    return {"reference": SOLUTIONS, "stubs": EXERCISES, "wrong_axis": built / "wrong_axis",
            "no_scale": built / "no_scale", "half_done": built / "half_done"}


def results_of(directory: Path) -> list[dict]:
    """Every check's result on ``directory``, run in this process, timings dropped."""
    return [dataclasses.asdict(dataclasses.replace(check, seconds=0.0))
            for exercise in curriculum.ids()
            for check in run_exercise(exercise, lambda e: in_process(directory, e)).checks]


def test_every_check_rng_is_seeded_from_its_name(monkeypatch):
    """The runner makes exactly one generator per check, seeded with seed_for(exercise, name); no check
    (nor the reference it calls) makes another."""
    seeds: list = []
    real = np.random.default_rng

    def recording(*args, **kwargs):
        seeds.append(args[0] if args else kwargs.get("seed"))
        return real(*args, **kwargs)

    monkeypatch.setattr(np.random, "default_rng", recording)
    specs = all_specs()
    for spec in specs:
        seeds.clear()
        execute(spec, in_process(SOLUTIONS, spec.exercise))
        assert seeds[:1] == [seed_for(spec.exercise, spec.name)], spec.name
        # an exercise whose functions take a generator (sampling's rng) is checked with generators of fixed seeds
        assert not seeds[1:] or takes_a_generator(spec.exercise) and all(type(s) is int for s in seeds[1:]), spec.name
    assert sum("rng" in spec.fixtures for spec in specs) >= 10  # randomized checks exist to be tested
    assert len({seed_for(spec.exercise, spec.name) for spec in specs}) == len(specs)


def takes_a_generator(exercise: str) -> bool:
    """Whether a function of the exercise's reference module takes a random generator (a parameter ``rng``)."""
    import importlib
    import inspect

    from grader import curriculum

    module = importlib.import_module(f"solutions.{curriculum.get(exercise).id}")
    return any("rng" in inspect.signature(value).parameters for value in vars(module).values()
               if inspect.isfunction(value) and value.__module__ == module.__name__)


def test_seed_for_is_a_stable_hash():
    """Fixed values: the seed must not depend on the process (str hash randomization) or the version."""
    assert seed_for("softmax", "test_softmax_matches_reference") == 1074590385
    assert seed_for("a", "b") == 519008605


@pytest.fixture(scope="module")
def first_run(implementations) -> dict[str, list[dict]]:
    """Every implementation's results, run once in this process (what the runs below are compared with)."""
    return {name: results_of(directory) for name, directory in implementations.items()}


def test_check_suite_twice_in_process_is_identical(implementations, first_run):
    for name, directory in implementations.items():
        assert results_of(directory) == first_run[name], name  # the second run in this process
        assert len(first_run[name]) == len(all_specs())
    failing = [c for c in first_run["wrong_axis"] if c["status"] != "passed"]
    assert failing and any(c["mistake"] for c in failing)  # messages with numbers were compared


SUBPROCESS = """
import dataclasses, json, sys
sys.path.insert(0, {here!r})
from test_determinism import results_of
from pathlib import Path
print(json.dumps({{name: results_of(Path(path)) for name, path in json.loads(sys.argv[1]).items()}}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("hashseed", ["0", "4242"])  # this process runs under a random one
def test_check_suite_in_a_fresh_process_under_any_hash_seed(implementations, first_run, hashseed):
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    script = SUBPROCESS.format(here=str(Path(__file__).parent))
    done = subprocess.run([sys.executable, "-c", script, json.dumps({k: str(v) for k, v in implementations.items()})],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == first_run


def _dotted(node: ast.AST) -> bool:
    """A plain dotted name (``np.random.PCG64``): names a thing, calls nothing."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _annotations(tree: ast.AST) -> set[int]:
    """ids of every node naming a type, not using it: a type annotation, a base class (``rng: np.random.Generator``
    draws nothing), or a type test (``type(bits) is np.random.PCG64``, ``isinstance(g, np.random.Generator)``)."""
    roots = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg,
                         node.args.kwarg]
            roots += [a.annotation for a in arguments if a is not None and a.annotation is not None] + [node.returns]
        elif isinstance(node, ast.ClassDef):  # a base class (``class Draws(np.random.Generator)``) draws nothing
            roots += node.bases
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            roots += [operand for operand in (node.left, *node.comparators) if _dotted(operand)]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2):
            roots += [kind for kind in getattr(node.args[1], "elts", [node.args[1]]) if _dotted(kind)]
    return {id(inner) for root in roots if root is not None for inner in ast.walk(root)}


def _clock_uses(path: Path) -> list[str]:
    """Imports of clock or entropy modules, os.urandom, and numpy randomness other than a seeded constructor
    (``np.random.default_rng(seed)``, ``np.random.RandomState(seed)``...) or a type annotation."""
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    annotated = _annotations(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"import {a.name} (line {node.lineno})" for a in node.names
                      if a.name.split(".")[0] in CLOCK_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if (node.module.split(".")[0] in CLOCK_MODULES or node.module == "numpy.random"
                    or node.module == "os" and any(a.name in ("urandom", "getrandom") for a in node.names)):
                found.append(f"from {node.module} import ... (line {node.lineno})")
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and (node.value.id, node.attr) in ENTROPY_CALLS and id(node) not in annotated):
            use = parents.get(id(node))
            call = parents.get(id(use))
            seeded = (isinstance(use, ast.Attribute) and use.attr in SEEDED_CONSTRUCTORS and isinstance(call, ast.Call)
                      and call.func is use and (call.args or call.keywords))
            if not seeded:
                name = f"{node.value.id}.{node.attr}" + (f".{use.attr}" if isinstance(use, ast.Attribute) else "")
                found.append(f"{name} (line {node.lineno})")
    return found


def test_no_check_reads_the_clock_or_unseeded_randomness():
    assert len(CHECK_SOURCES) > 10
    offenders = {path.relative_to(REPO).as_posix(): uses for path in CHECK_SOURCES if (uses := _clock_uses(path))}
    assert offenders == {}


def test_the_static_scan_catches_what_it_should(tmp_path):
    """The scan above is only useful if it can fail."""
    bad = tmp_path / "check_bad.py"
    bad.write_text("import time\nimport numpy as np\nfrom os import urandom\n"
                   "def test_a(impl, rng: np.random.Generator) -> np.random.Generator:\n"
                   "    x = np.random.rand(3)\n    g = np.random.default_rng()\n"
                   "    h = np.random.default_rng(7)\n    s = np.random.RandomState(1)\n"
                   "    return time.time(), urandom(4), np.random\n"
                   "class Draws(np.random.Generator):\n    pass\n"
                   "def kind(g):\n"
                   "    return type(g.bit_generator) is np.random.PCG64 or isinstance(g, np.random.Generator)\n"
                   "def fresh(g):\n    return g is np.random.default_rng()\n")
    uses = sorted(_clock_uses(bad), key=lambda use: int(use.rsplit("line ", 1)[1].rstrip(")")))
    assert uses == ["import time (line 1)", "from os import ... (line 3)", "np.random.rand (line 5)",
                    "np.random.default_rng (line 6)", "np.random (line 9)", "np.random.default_rng (line 15)"], uses
