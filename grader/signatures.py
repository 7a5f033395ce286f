"""The parameter names of the exercises' functions, so that a restated call reads ``attention(Q of shape
(4, 8), K of shape (4, 8), ...)`` rather than ``attention(array of shape (4, 8), ...)``.

They come from the reference solutions (trusted, never the student's code); the student release, which
ships no solutions, reads the same names from ``signatures.json`` (written beside this file by
``attnkit release``) and never imports a ``solutions`` package (one in a student's folder would be theirs).
A function found in neither gets no names (its arguments are described by kind).
"""
from __future__ import annotations

import importlib
import inspect
import json
from functools import lru_cache
from pathlib import Path

RECORDED = Path(__file__).with_name("signatures.json")


def of_module(module: str) -> dict[str, tuple[str, ...]]:
    """{public function or ``Class.method``: its parameter names (without ``self``)} of the reference module
    ``solutions.<module>``."""
    loaded = importlib.import_module(f"solutions.{module}")
    found = {}
    for name, value in vars(loaded).items():
        if name.startswith("_") or getattr(value, "__module__", "") != loaded.__name__:
            continue
        if inspect.isfunction(value):
            found[name] = tuple(inspect.signature(value).parameters)
        elif inspect.isclass(value):
            found.update({f"{name}.{method}": tuple(inspect.signature(function).parameters)[1:]
                          for method, function in vars(value).items()
                          if inspect.isfunction(function) and not method.startswith("_")})
    return found


@lru_cache(maxsize=1)
def _recorded() -> dict:
    try:
        data = json.loads(RECORDED.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def method_parameters(class_name: str, method: str) -> tuple[str, ...]:
    """The parameter names of ``class_name.method`` (without ``self``), in whichever exercise's module defines
    that class (empty when unknown)."""
    from . import curriculum

    return next((names for names in (parameters(e.id, f"{class_name}.{method}") for e in curriculum.exercises())
                 if names), ())


@lru_cache(maxsize=None)
def parameters(module: str, name: str) -> tuple[str, ...]:
    """The parameter names of ``module.name`` (empty when unknown)."""
    if RECORDED.is_file():  # the student release
        names = _recorded().get(module, {})
        names = names.get(name, ()) if isinstance(names, dict) else ()
        return tuple(str(n) for n in names) if isinstance(names, list) else ()
    try:
        return _of_module_once(module).get(name, ())
    except ImportError:
        return ()


@lru_cache(maxsize=None)
def _of_module_once(module: str) -> dict[str, tuple[str, ...]]:
    """:func:`of_module`, worked out once per module (a check of all exercises asks for 88 names of 17 modules: 6 ms
    of the checking threads' time when each name redid its module's signatures)."""
    return of_module(module)
