"""A toy exercise, added to a temporary copy of the project with exactly the files
docs/adding-an-exercise.md lists: a solution module, checks, mistakes, a quiz bank and one
curriculum entry (the stub is generated).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("attnkit", "grader", "solutions", "exercises", "quizzes", "pyproject.toml", "README.md")
TOY = "toy_scale"

SOLUTION = '''"""Exercise ``toy_scale``: the scaled dot products of queries and keys.

Source: 002_5d842bf762d216d9.txt ("Scaled Dot-Product Attention").
"""
import math

import numpy as np


def scaled_scores(Q, K):
    """The attention scores Q K^T / sqrt(d_k).

    Parameters
    ----------
    Q : array_like, shape (n_q, d_k)
        The queries.
    K : array_like, shape (n_k, d_k)
        The keys.

    Returns
    -------
    numpy.ndarray, shape (n_q, n_k)
        Float input keeps its dtype; integer or list input gives float64.
    """
    ### BEGIN SOLUTION implement scaled_scores: dot products of queries and keys, scaled by sqrt(d_k)
    Q, K = np.asarray(Q), np.asarray(K)
    if Q.dtype.kind != "f":
        Q = Q.astype(np.float64)
    n_q, d_k = Q.shape
    scores = Q @ K.T.astype(Q.dtype)  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
    # anchor: scaled_scores.return
    return scores * (1.0 / math.sqrt(d_k))
    ### END SOLUTION
'''

CHECKS = '''"""Checks for exercise ``toy_scale``: the scaled dot products of queries and keys."""
import numpy as np

from grader.checks.common import DTYPES, expect_dtypes, normal
from grader.checks.marks import check
from grader.compare import arg, call_text, expect_close


@check(points=2, task=1)
def test_scaled_scores_match_reference(impl, ref, rng):
    """scaled_scores matches the reference (float64 and float32)"""
    for dtype in DTYPES:
        Q, K = normal(rng, (4, 8), dtype), normal(rng, (5, 8), dtype)
        call = call_text("scaled_scores", arg("Q", Q), arg("K", K))
        expect_close(impl.toy_scale.scaled_scores(Q, K), ref.toy_scale.scaled_scores(Q, K), call=call)


@check(points=1, task=1, visibility="hidden")
def test_scaled_scores_one_key(impl, ref, rng):
    """scaled_scores with a single key"""
    Q, K = normal(rng, (3, 2)), normal(rng, (1, 2))
    call = call_text("scaled_scores", arg("Q", Q), arg("K", K))
    expect_close(impl.toy_scale.scaled_scores(Q, K), ref.toy_scale.scaled_scores(Q, K), call=call)


@check(points=1, task=1)
def test_scaled_scores_long_vectors(impl, ref, rng):
    """scaled_scores with vectors of length 64"""
    Q, K = normal(rng, (2, 64)), normal(rng, (3, 64))
    call = call_text("scaled_scores", arg("Q", Q), arg("K", K))
    expect_close(impl.toy_scale.scaled_scores(Q, K), ref.toy_scale.scaled_scores(Q, K), call=call)


@check(points=1, task=1, rule="dtype")
def test_toy_scale_dtypes(impl, ref, rng):
    """scaled_scores keeps float32 float32 and returns float64 for integers"""
    for Q, K in ((normal(rng, (2, 4), np.float32), normal(rng, (3, 4), np.float32)),
                 (np.arange(8).reshape(2, 4), np.ones((3, 4), dtype=int))):
        call = call_text("scaled_scores", arg("Q", Q), arg("K", K))
        expect_dtypes(impl.toy_scale.scaled_scores(Q, K), ref.toy_scale.scaled_scores(Q, K), call=call)
'''

MISTAKES = '''"""Classic mistakes of exercise ``toy_scale``."""
from grader.mistakes.model import Edit, Mistake

NO_SCALE = Mistake(
    id="toy_scale_no_scale",
    functions=("scaled_scores",),
    looks_like="the scores were not divided by sqrt(d_k)",
    hint="Dot products grow with the vector length; what keeps their spread near 1 whatever d_k is?",
    patch=(Edit("scaled_scores.return", "return scores * (1.0 / math.sqrt(d_k))", "return scores"),),
)
'''

# A mistake whose mutant returns the reference's results (dividing by sqrt(d_k) instead of multiplying by its
# inverse): no check can tell it from the reference (python -m attnkit.devcheck --mutants finds it).
UNDETECTABLE = '''
DIVIDED = Mistake(
    id="toy_scale_divided",
    functions=("scaled_scores",),
    looks_like="the scores were divided by sqrt(d_k)",
    hint="Nothing to fix: this is the same computation.",
    patch=(Edit("scaled_scores.return", "return scores * (1.0 / math.sqrt(d_k))", "return scores / math.sqrt(d_k)"),),
)
'''

ENTRY = '''  - id: toy_scale
    title: Scaled scores (a toy exercise)
    depends_on: []
    source: '002_5d842bf762d216d9.txt, "Scaled Dot-Product Attention"'
    explanation:
      summary: |
        The score of a query and a key is their dot product, divided by the square root of
        the vectors' length so that the scores keep a spread near 1.
      quotes:
        - file: 002_5d842bf762d216d9.txt
          section: Scaled Dot-Product Attention
          text: Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V
    tasks:
      - task: 1
        name: scaled_scores
        hints:
          - "Every query meets every key: which matrix product gives all the dot products at once?"
          - "Divide by the square root of the vectors' length, d_k, the last dimension of Q."
'''

QUESTION = '''
  - id: toy-scale-{index}
    topic: toy_scale
    type: true_false
{predict}{mistakes}    prompt: >-
      True or false (statement {index}), the scores of {n_q} queries and {n_k} keys form a {n_q} x {n_k} matrix.
    answer: true
    explanation: >-
      Every query meets every key once, so there is one score per (query, key) pair.
    source: {{file: 002_5d842bf762d216d9.txt, section: "Scaled Dot-Product Attention"}}
    difficulty: easy
'''


def bank(questions: int = 8, predict: int = 3) -> str:
    items = [QUESTION.format(index=i, n_q=i + 2, n_k=i + 3, predict="    predict: true\n" if i < predict else "",
                             mistakes="    mistakes: [toy_scale_no_scale]\n" if i == 0 else "")
             for i in range(questions)]
    head = "# yaml-language-server: $schema=schema.json\ntopic: toy_scale\ntitle: A toy bank\nquestions:"
    return head + "".join(items)


def copy_project(target: Path) -> Path:
    """A copy of the project's packages (no tests, no caches) at ``target``."""
    target.mkdir(parents=True)
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(source, target / name)
    return target


def add_toy(root: Path, leave_out: tuple[str, ...] = ()) -> dict[str, Path]:
    """Write the toy exercise's files into the copy at ``root`` (but those named in ``leave_out``)."""
    files = {"solution": (root / "solutions" / f"{TOY}.py", SOLUTION),
             "checks": (root / "grader" / "checks" / f"check_{TOY}.py", CHECKS),
             "mistakes": (root / "grader" / "mistakes" / f"{TOY}.py", MISTAKES),
             "quiz bank": (root / "quizzes" / f"{TOY}.yaml", bank())}
    for name, (path, text) in files.items():
        if name not in leave_out:
            path.write_text(text, encoding="utf-8")
    curriculum = root / "grader" / "curriculum.yaml"
    curriculum.write_text(curriculum.read_text(encoding="utf-8") + ENTRY, encoding="utf-8")
    if "stub" not in leave_out:
        run(root, "-m", "attnkit.release.stubs", "--write")
    return {name: path for name, (path, _) in files.items()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def _files(root: Path) -> dict[str, Path]:
    return {"entry": root / "grader" / "curriculum.yaml", "solution": root / "solutions" / f"{TOY}.py",
            "stub": root / "exercises" / f"{TOY}.py", "checks": root / "grader" / "checks" / f"check_{TOY}.py",
            "mistakes": root / "grader" / "mistakes" / f"{TOY}.py", "bank": root / "quizzes" / f"{TOY}.yaml"}


# One way to break each rule of attnkit/devcheck/rules.py on the toy exercise (tests/curriculum/test_toy_exercise.py).
BREAK = {
    "entry": lambda root: _edit(_files(root)["entry"], "    source: '002_5d842bf762d216d9.txt, \"Scaled",
                                "    source: ''  # "),
    "hints": lambda root: _edit(_files(root)["entry"], '          - "Divide by the square root', "          # "),
    "solution": lambda root: _files(root)["solution"].unlink(),
    "stub": lambda root: _edit(_files(root)["stub"], "def scaled_scores(Q, K):", "def scaled_scores(Q, K, extra=0):"),
    "checks_load": lambda root: _edit(_files(root)["checks"], "@check(points=1, task=1)\n", ""),
    "checks_cover_tasks": lambda root: _edit(_files(root)["checks"], "@check(points=1, task=1)\n",
                                             "@check(points=1, task=2)\n"),
    "check_count": lambda root: _edit(_files(root)["checks"], "def test_scaled_scores_long_vectors",
                                      "def scaled_scores_long_vectors"),
    "check_titles": lambda root: _edit(_files(root)["checks"], '"""scaled_scores with vectors of length 64"""', "pass"),
    "dtype_check": lambda root: _edit(_files(root)["checks"], "def test_toy_scale_dtypes", "def test_toy_dtypes"),
    "points": lambda root: _edit(_files(root)["entry"], "    title: Scaled scores (a toy exercise)\n",
                                 "    title: Scaled scores (a toy exercise)\n    points: 5\n"),
    "mistakes": lambda root: _edit(_files(root)["solution"], "return scores * (1.0 / math.sqrt(d_k))",
                                   "return scores / math.sqrt(d_k)"),
    "mistake_texts": lambda root: _edit(_files(root)["mistakes"], "divided by sqrt(d_k)", "divided by sqrt(d_k)."),
    "mistakes_reviewed": lambda root: _edit(_files(root)["bank"], "    mistakes: [toy_scale_no_scale]\n", ""),
    "quiz_bank": lambda root: _files(root)["bank"].write_text("questions: [\n", encoding="utf-8"),
    "quiz_size": lambda root: _files(root)["bank"].write_text(bank(questions=7), encoding="utf-8"),
    "unclaimed": lambda root: (root / "solutions" / "stray.py").write_text("x = 1\n", encoding="utf-8"),
}


def run(root: Path, *args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """``python ARGS`` with the copy's packages first on the path (so its curriculum is the one read)."""
    env = dict(os.environ, PYTHONPATH=str(root), ATTNKIT_HOME=str(root / ".home"), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, *args], cwd=cwd or root, env=env, capture_output=True, text=True,
                          timeout=300)
    if check and done.returncode != 0:
        raise AssertionError(f"python {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


# Runs on the copy's packages: each step called as a function (devcheck's main, pytest.main), in turn, in ONE process,
# as ``python -m attnkit.devcheck ARGS`` and ``python -m pytest ARGS`` would run it (a step that raises exits 1 with
# its traceback); each step's exit code and output go to the JSON file named first.
STEPS = """
import contextlib, io, json, sys, traceback

import pytest

from attnkit.devcheck import main

ran = []
for tool, args in json.loads(sys.argv[2]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args) if tool == "devcheck" else int(pytest.main(args))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except Exception:
            traceback.print_exc()
            code = 1
    ran.append({"returncode": code, "stdout": out.getvalue(), "stderr": err.getvalue()})
with open(sys.argv[1], "w", encoding="utf-8") as handle:
    json.dump(ran, handle)
"""


@dataclass(frozen=True)
class Ran:
    """What one step of :func:`run_steps` returned and printed."""

    returncode: int
    stdout: str
    stderr: str


def run_steps(root: Path, *steps: tuple[str, list[str]]) -> list[Ran]:
    """Each ``(tool, args)`` step (tool ``devcheck`` or ``pytest``) on the copy at ``root``, in one process: one
    interpreter start and one load of the copy's curriculum, checks and quiz banks for them all."""
    with tempfile.TemporaryDirectory(prefix="toy-steps-") as folder:
        result = Path(folder) / "ran.json"
        run(root, "-c", STEPS, str(result), json.dumps(steps))
        return [Ran(**ran) for ran in json.loads(result.read_text(encoding="utf-8"))]
