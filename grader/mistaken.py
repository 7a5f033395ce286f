"""Mistaken references: the reference solutions with a mistake's patch applied (``grader.mistakes``).

A mistake's own module is patched and loaded as a fresh module; the modules that (transitively) import it are
loaded again on top of it, so a mistake of a shared piece reaches every function that uses it. Several
mistakes of one module (``"a+b"``: two mistakes at once) are applied together. Built once per process.
"""
from __future__ import annotations

import copy
import hashlib
import importlib
import importlib.util
import re
import sys
import types
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from . import budget_clock, mistakes
from .calls import Call
from .memo import MISSING, Memo
from .mistakes.model import apply


@lru_cache(maxsize=None)
def mistaken_reference(mistake_id: str, target: str | None = None) -> dict[str, types.ModuleType]:
    """Solution module name -> module, the mistake's own module patched and the modules that (transitively)
    import it loaded again on top of the patched one (built once per process): a mistake of a shared piece
    (softmax, apply_mask, scaled_dot_product_attention) reaches every function that uses it. With ``target``
    only the modules on the way to ``target`` are loaded again (the others stay the real reference's)."""
    found = [mistakes.by_id()[part] for part in mistake_id.split("+")]
    module = found[0][0]
    if any(owner != module for owner, _ in found):
        raise ValueError(f"{mistake_id}: mistakes applied together must patch one module")
    return patched_reference(mistake_id, module, tuple(r for _, mistake in found for r in mistake.patch), target)


@lru_cache(maxsize=None)
def patched_reference(name: str, module: str, patch: tuple, target: str | None = None) -> dict[str, types.ModuleType]:
    """As :func:`mistaken_reference`, for any ``patch`` of solution module ``module`` (``name`` labels it: the
    variants of ``grader.alternatives``)."""
    with budget_clock.excluded():  # a diagnosis's budget leaves the build out
        return _build(name, module, patch, target)


def _build(name: str, module: str, patch: tuple, target: str | None) -> dict[str, types.ModuleType]:
    origin = _origin(module)
    source = apply(Path(origin).read_text(encoding="utf-8"), patch, f"{name} on solutions/{module}.py")
    namespace = {other: importlib.import_module(f"solutions.{other}") for other, _ in mistakes.registry().values()}
    package = _private_package(name, Path(origin).parent, namespace)
    try:
        namespace[module] = _load(package, module, origin, compile(source, f"<{name}: solutions/{module}.py>", "exec"))
        for user in mistakes.users_of_module(module):  # in curriculum order: what a user imports is loaded first
            if target is None or user == target or target in mistakes.users_of_module(user):
                namespace[user] = _load(package, user, *_solution_code(user))
    finally:
        for loaded in [loaded for loaded in sys.modules if loaded == package or loaded.startswith(package + ".")]:
            del sys.modules[loaded]
    return namespace


@lru_cache(maxsize=None)
def _solution_code(module: str) -> tuple[str, types.CodeType]:
    origin = _origin(module)
    return origin, compile(Path(origin).read_text(encoding="utf-8"), origin, "exec")


def _origin(module: str) -> str:
    """The file of solution module ``module``."""
    spec = importlib.util.find_spec(f"solutions.{module}")
    if spec is None or spec.origin is None:
        raise ImportError(f"no solutions/{module}.py")
    return spec.origin


def _load(package: str, module: str, origin: str, code: types.CodeType) -> types.ModuleType:
    """Module ``module`` of ``package`` from ``code`` (registered first: the modules loaded after it import it)."""
    loaded = types.ModuleType(f"{package}.{module}")
    loaded.__package__, loaded.__file__ = package, origin
    sys.modules[loaded.__name__] = loaded
    exec(code, loaded.__dict__)
    return loaded


def _private_package(mistake_id: str, folder: Path, namespace: dict[str, types.ModuleType]) -> str:
    """A package name, registered while a mistaken reference is built, whose modules are the real reference's
    (so relative imports of the modules loaded again resolve to the patched one or to the real ones)."""
    package = "_attnkit_mistaken." + re.sub(r"\W", "_", mistake_id)
    for parent in ("_attnkit_mistaken", package):
        holder = types.ModuleType(parent)
        holder.__path__ = [str(folder)] if parent == package else []
        sys.modules[parent] = holder
    for name, real in namespace.items():
        sys.modules[f"{package}.{name}"] = real
    return package


MEMO_BYTES = 128 * 2**20
_memo = Memo(MEMO_BYTES)


def memo_call(label: str, function: Callable, call: Call) -> Any:
    """``function(*call.args, **call.kwargs)`` of a mistaken reference (``label``: which one), memoised by the call's
    digest like the reference's own results (``grader.reference``), whatever it returns: a class asks the same
    mistakes of the same inputs, and a heavy function (``train``) returns a tree of parameters. Results are kept as
    deep copies (an input the check changes later cannot change them); at most :data:`MEMO_BYTES` (``grader.memo``),
    the least recently used dropped first."""
    if call.digest is None:
        return function(*call.args, **call.kwargs)
    key = hashlib.blake2b(label.encode() + b"\0" + call.digest, digest_size=20).digest()
    found = _memo.get(key)
    if found is not MISSING:
        return found
    result = copy.deepcopy(function(*call.args, **call.kwargs))
    _memo.put(key, result)
    return result
