"""Record what the reference and the mistake variants return to the public checks.

The checks run unchanged: ``ref`` is a recording proxy of the reference solutions, and for
the duration of the run every ``grader.mistakes`` module a check module refers to is swapped
for a proxy of the same names (see :func:`checks_using`). Mistake candidates are lazy; the
recorder evaluates every candidate of every call (a student's wrong answer will ask for
them), and ``expect_close`` is wrapped to evaluate the candidates a check builds inline
(``lambda: ref.attention...``), so the recording holds everything a failing student needs.
"""
from __future__ import annotations

import importlib
import inspect
import types
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

from grader import compare, curriculum
from grader.compare import Mistake
from grader.results import CheckResult
from grader.runner import CheckSpec, check_module_name, discover, execute

from .replay import FORMAT, NEAR_LIMIT, call_key, canonical

MISTAKES_PACKAGE = "grader.mistakes"
SHARED_CHECK_MODULES = ("grader.checks.common",)


class RecordingError(Exception):
    """The recording cannot be made (a non-deterministic or unrecordable reference call)."""


def public_checks() -> list[CheckSpec]:
    """Every check that is not visibility="hidden", in learning-path order."""
    return [spec for exercise in curriculum.ids() for spec in discover(exercise) if spec.visibility != "hidden"]


def module_surface(module: types.ModuleType) -> tuple[dict[str, Mistake], list[str]]:
    """(Mistake constants by name, names of public functions) of a ``grader.mistakes`` module.

    This is all a replayed mistakes module offers; the proxies used while building offer the same.
    """
    constants = {name: value for name, value in vars(module).items() if isinstance(value, Mistake)}
    functions = sorted(name for name, value in vars(module).items()
                       if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_"))
    return constants, functions


class Recorder:
    """Calls and arrays, in the format of :class:`attnkit.release.replay.Store`."""

    def __init__(self):
        self.calls: dict[str, dict] = {}
        self.arrays: dict[str, np.ndarray] = {}
        self.functions: dict[str, str] = {}

    def key(self, space: str, module: str, function: str, args: tuple, kwargs: dict) -> tuple[str, list, dict]:
        inputs: dict = {}
        try:
            key, tree = call_key(space, module, function, args, kwargs, inputs)
        except TypeError as error:
            raise RecordingError(f"cannot record {module}.{function}: {error}") from None
        return key, tree, inputs

    def add(self, key: str, tree: list, inputs: dict, result: dict) -> None:
        space, module, function = tree[:3]
        near = sum(a.size for a in inputs.values()) <= NEAR_LIMIT
        if near:
            self.arrays.update(inputs)
        previous = self.calls.get(key)
        if previous is not None and previous["result"] != result:
            raise RecordingError(f"{module}.{function} returned two different values for the same arguments")
        self.calls[key] = {"space": space, "module": module, "function": function, "args": tree, "near": near,
                           "result": result}
        self.functions[f"{space}:{module}.{function}"] = result["kind"]

    def node(self, value: Any) -> dict:
        try:
            return canonical(value, self.arrays)
        except TypeError as error:
            raise RecordingError(f"cannot record a reference result: {error}") from None

    def index(self) -> dict:
        return {"format": FORMAT, "numpy": np.__version__, "calls": self.calls, "functions": self.functions}


class RecordingReference:
    """``ref`` for recording: calls the reference solutions and records each result."""

    def __init__(self, recorder: Recorder, reference: Any):
        self._recorder, self._reference = recorder, reference

    def __getattr__(self, module: str):
        if module.startswith("_"):
            raise AttributeError(module)
        real = getattr(self._reference, module)
        recorder = self._recorder

        class Module:
            def __getattr__(self, function: str):
                target = getattr(real, function)

                def recorded(*args, **kwargs):
                    key, tree, inputs = recorder.key("ref", module, function, args, kwargs)
                    result = target(*args, **kwargs)
                    recorder.add(key, tree, inputs, {"kind": "value", "value": recorder.node(result)})
                    return result

                return recorded

        return Module()


def _is_candidates(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], Mistake)
                                           for p in value)


class RecordingMistakes:
    """A ``grader.mistakes`` module for recording: its Mistake constants, and functions that record."""

    def __init__(self, recorder: Recorder, module: types.ModuleType):
        self._recorder, self._module = recorder, module
        self._name = module.__name__.rsplit(".", 1)[1]
        self._constants, self._functions = module_surface(module)

    def __getattr__(self, name: str):
        if name in self._constants:
            return self._constants[name]
        if name not in self._functions:
            raise AttributeError(f"{self._module.__name__}.{name}: the student release's mistakes modules only "
                                 "offer Mistake constants and functions")
        return self._recording(name, getattr(self._module, name))

    def _recording(self, function: str, target: Callable) -> Callable:
        recorder, module = self._recorder, self._name

        def recorded(*args, **kwargs):
            key, tree, inputs = recorder.key("mistakes", module, function, args, kwargs)
            try:
                result = target(*args, **kwargs)
            except Exception as error:
                recorder.add(key, tree, inputs, {"kind": "raises", "error": type(error).__name__})
                raise
            if not _is_candidates(result):
                recorder.add(key, tree, inputs, {"kind": "value", "value": recorder.node(result)})
                return result
            items, pairs = [], []
            for mistake, output in result:
                described = [mistake.id, mistake.looks_like, mistake.hint]
                try:
                    value = output() if callable(output) else output
                except Exception:
                    items.append({"mistake": described, "undefined": True})
                    pairs.append((mistake, _raises))
                    continue
                items.append({"mistake": described, "value": recorder.node(value)})
                pairs.append((mistake, lambda value=value: value))
            recorder.add(key, tree, inputs, {"kind": "candidates", "items": items})
            return pairs

        return recorded


def _raises():
    raise ValueError("undefined for this input")


def forcing(expect_close: Callable) -> Callable:
    """``expect_close`` that first evaluates every lazy mistake candidate it is given."""

    def forced(got, expected, *, mistakes=(), **options):
        mistakes = list(mistakes)
        for _, output in mistakes:
            if callable(output):
                try:
                    output()
                except Exception:
                    pass
        return expect_close(got, expected, mistakes=mistakes, **options)

    return forced


@contextmanager
def checks_using(mistakes_proxy: Callable[[types.ModuleType], Any], force: bool) -> Iterator[None]:
    """Swap the ``grader.mistakes`` modules (and functions) the check modules refer to for proxies."""
    modules = [importlib.import_module(check_module_name(e)) for e in curriculum.ids()]
    modules += [importlib.import_module(name) for name in SHARED_CHECK_MODULES]
    saved = []
    proxies: dict[str, Any] = {}

    def proxy_of(module):
        if module.__name__ not in proxies:
            proxies[module.__name__] = mistakes_proxy(module)
        return proxies[module.__name__]

    for module in modules:
        for name, value in list(vars(module).items()):
            replacement = None
            if isinstance(value, types.ModuleType) and value.__name__.startswith(MISTAKES_PACKAGE + "."):
                replacement = proxy_of(value)
            elif inspect.isfunction(value) and value.__module__.startswith(MISTAKES_PACKAGE + "."):
                replacement = getattr(proxy_of(importlib.import_module(value.__module__)), value.__name__)
            elif force and name == "expect_close" and value is compare.expect_close:
                replacement = forcing(value)
            if replacement is not None:
                saved.append((module, name, value))
                setattr(module, name, replacement)
    try:
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


def record(make_impl: Callable[[str], Any], reference: Any,
           specs: list[CheckSpec]) -> tuple[Recorder, list[CheckResult]]:
    """Run ``specs`` on the reference implementation, recording every reference and mistake call."""
    recorder = Recorder()
    ref = RecordingReference(recorder, reference)
    with checks_using(lambda module: RecordingMistakes(recorder, module), force=True):
        outcomes = [execute(spec, make_impl(spec.exercise), ref) for spec in specs]
    return recorder, outcomes
