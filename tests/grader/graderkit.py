"""Shared helpers for the tests of grader/checks (imported by test_checks_*.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader import curriculum
from grader.compare import CheckFailed, expect_close
from grader.runner import run_exercise
from grader.sandbox.host.inprocess import in_process

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
ALTERNATIVES = Path(__file__).resolve().parent / "alternatives"


def run(directory, exercise):
    return run_exercise(exercise, lambda e: in_process(directory, e))


def copy_solutions(tmp_path: Path) -> Path:
    target = tmp_path / "impl"
    shutil.copytree(SOLUTIONS, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def mutant(tmp_path: Path, mistake) -> Path:
    """A copy of solutions/ with ``mistake`` (a :class:`grader.mistakes.model.Mistake`) applied as its mutant."""
    from grader.mistakes import module_of
    from grader.mistakes.model import apply

    impl = copy_solutions(tmp_path)
    path = impl / f"{module_of(mistake.id)}.py"
    path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
    return impl


def dependants_closure(exercise: str) -> set[str]:
    """The exercises whose code (transitively) uses ``exercise``, itself included."""
    return set(curriculum.users_of([exercise]))


def failure_of(got, expected) -> CheckFailed:
    """The verdict a check gives ``got`` against ``expected`` (for a diagnosis to explain)."""
    with pytest.raises(CheckFailed) as caught:
        expect_close(got, expected, call="f(x)")
    return caught.value
