"""Run the checks of one exercise against one implementation and collect the results.

The same check functions run under pytest (``grader.pytest_plugin``); this runner calls them
directly, without pytest's start-up cost, for ``attnkit check`` and ``attnkit grade``.
Fixtures are the fixed set ``impl``, ``ref`` and ``rng`` (docs/ARCHITECTURE.md).
"""
from __future__ import annotations

import importlib
import inspect
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import curriculum
from .compare import CheckFailed
from .diagnosis import Session
from .reference import reference as reference_solutions
from .results import CheckResult, ExerciseResult, Status
from .sandbox import errors
from .sandbox.proxy import Implementation

FIXTURES = ("impl", "ref", "rng")
NOT_IMPLEMENTED_MESSAGE = "not implemented yet"


@dataclass(frozen=True)
class CheckSpec:
    exercise: str
    name: str
    title: str
    task: int
    points: float
    visibility: str
    function: Callable
    fixtures: tuple[str, ...]


def check_module_name(exercise: str) -> str:
    return f"grader.checks.check_{exercise}"


@lru_cache(maxsize=None)
def discover(exercise: str) -> tuple[CheckSpec, ...]:
    """The checks of one exercise, in the order they are defined in its file."""
    module = importlib.import_module(check_module_name(exercise))
    specs = []
    for name, function in vars(module).items():
        if not (name.startswith("test_") and inspect.isfunction(function)):
            continue
        if not hasattr(function, "attnkit_points"):
            raise TypeError(f"{module.__name__}.{name} has no @check(points=...) decorator")
        parameters = tuple(inspect.signature(function).parameters)
        unknown = set(parameters) - set(FIXTURES)
        if unknown:
            raise TypeError(f"{module.__name__}.{name} asks for unknown fixtures {sorted(unknown)}")
        title = (inspect.getdoc(function) or name).splitlines()[0]
        specs.append(CheckSpec(exercise, name, title, function.attnkit_task, function.attnkit_points,
                               function.attnkit_visibility, function, parameters))
    specs.sort(key=lambda spec: spec.function.__code__.co_firstlineno)
    return tuple(specs)


def seed_for(exercise: str, name: str) -> int:
    """The seed of a check's ``rng``: a stable hash of its name (never the clock)."""
    return zlib.crc32(f"{exercise}.{name}".encode())


def execute(spec: CheckSpec, impl: Any, reference: Any = None) -> CheckResult:
    """Run one check: the single executor of every front end (check, grade, pytest, nbgrader, release).

    ``impl`` is the implementation under test (a sandboxed child, a notebook's globals, or the
    reference itself when the release is recorded); ``reference`` is what ``ref`` answers from:
    the real memoised reference solutions (the default), or the release's recording or replaying
    reference. Every outcome becomes a :class:`CheckResult`; nothing propagates.
    """
    session = Session(reference_solutions() if reference is None else reference)
    values = {"impl": impl, "ref": session.ref, "rng": np.random.default_rng(seed_for(spec.exercise, spec.name))}
    result = CheckResult(spec.exercise, spec.name, spec.title, spec.task, 0.0, spec.points, Status.PASSED,
                         visibility=spec.visibility)
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"):
            spec.function(**{name: values[name] for name in spec.fixtures})
        result.points = spec.points
    except errors.StudentNotImplemented as failure:
        if failure.sibling:  # this exercise is written, but calls a sibling that is not (yet)
            result.status, result.message = Status.FAILED, failure.message
        else:
            result.status, result.message = Status.NOT_IMPLEMENTED, f"{NOT_IMPLEMENTED_MESSAGE}: {failure.message}"
    except (CheckFailed, errors.StudentRaised) as failure:  # a wrong value, or an exception: both diagnosed
        result.status, result.message = Status.FAILED, failure.message
        diagnosis = getattr(failure, "diagnosis", None) or session.diagnose(failure)
        if diagnosis is not None:
            result.mistake, result.hint = diagnosis.id, diagnosis.hint
            result.message += f"\n  looks like {diagnosis.looks_like}"
    except errors.StudentError as failure:
        result.status, result.message = Status.FAILED, failure.message
    except AssertionError as failure:
        result.status, result.message = Status.FAILED, str(failure) or f"{spec.title}: failed"
    except Exception as failure:  # a bug on the trusted side: say so, never blame the student
        result.status = Status.GRADER_ERROR
        result.message = f"internal grader error in {spec.name} ({type(failure).__name__}: {failure}); please report it"
    result.seconds = time.perf_counter() - start
    return result


def run_exercise(exercise: str, make_impl: Callable[[str], Implementation], *,
                 visibility: str | None = None) -> ExerciseResult:
    """Run every check of ``exercise``; a fresh ``make_impl(exercise)`` after a child dies."""
    curriculum.get(exercise)  # KeyError with the known ids for a typo
    impl = None
    outcome = ExerciseResult(exercise)
    for spec in discover(exercise):
        if visibility is not None and spec.visibility != visibility:
            continue
        if impl is None or impl.transport.dead:
            impl = make_impl(exercise)
        outcome.checks.append(execute(spec, impl))
    if impl is not None:
        impl.transport.close()
    return outcome


def run_submission(modules_dir, zygote, exercises: tuple[str, ...] | None = None, *,
                   visibility: str | None = None) -> list[ExerciseResult]:
    """Grade one directory of student modules in the sandbox: a private copy, a child per exercise."""
    from .sandbox.child import Workspace

    with Workspace(modules_dir, zygote.user) as workspace:
        return [run_exercise(exercise, lambda ex: zygote.implementation(workspace, ex), visibility=visibility)
                for exercise in (exercises or curriculum.ids())]


def modules_dir_of(path) -> Path:
    """Where a submission's modules are: ``PATH/exercises`` when it exists, else ``PATH`` itself."""
    path = Path(path)
    return path / "exercises" if (path / "exercises").is_dir() else path
