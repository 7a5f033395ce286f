"""Mistaken references: the reference solutions with a mistake's patch applied (``grader.mistakes``).

A mistake's own module is patched and loaded as a fresh module; the modules that (transitively) import it are
loaded again on top of it, so a mistake of a shared piece reaches every function that uses it. Several
mistakes of one module (``"a+b"``: two mistakes at once) are applied together. Built once per process.
"""
from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import types
from functools import lru_cache
from pathlib import Path

from . import mistakes
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
    spec = importlib.util.find_spec(f"solutions.{module}")
    source = Path(spec.origin).read_text(encoding="utf-8")
    for _, mistake in found:
        source = apply(source, mistake.patch, f"{mistake.id} on solutions/{module}.py")
    namespace = {name: importlib.import_module(f"solutions.{name}") for name, _ in mistakes.registry().values()}
    package = _private_package(mistake_id, Path(spec.origin).parent, namespace)
    try:
        namespace[module] = _load(package, module, spec.origin,
                                  compile(source, f"<{mistake_id}: solutions/{module}.py>", "exec"))
        for user in mistakes.users_of_module(module):  # in curriculum order: what a user imports is loaded first
            if target is None or user == target or target in mistakes.users_of_module(user):
                namespace[user] = _load(package, user, *_solution_code(user))
    finally:
        for name in [name for name in sys.modules if name == package or name.startswith(package + ".")]:
            del sys.modules[name]
    return namespace


@lru_cache(maxsize=None)
def _solution_code(module: str) -> tuple[str, types.CodeType]:
    origin = importlib.util.find_spec(f"solutions.{module}").origin
    return origin, compile(Path(origin).read_text(encoding="utf-8"), origin, "exec")


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
