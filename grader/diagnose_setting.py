"""Settings applied where they must not be, or ignored where they must apply.

Every function with an optional behaviour (a parameter with a default: ``mask``, ``causal``, ``bias``,
``positions``, ``eps``, ``key_padding_mask``...) is rerun on the reference under the *other* setting of the
same call, and a student's wrong value that equals that run is named (``grader.mistakes.generic``):

* an argument the call gave (not its default) is dropped: the run with the default. "the `mask` made no
  difference";
* a ``bool`` left at its default is flipped: "causal=True was applied although the call said causal=False";
* a ``mask`` left at ``None`` becomes the causal (lower-triangular) mask of the call's query and key counts
  (axis -2 of ``Q`` and ``K``, or of ``X``), and a given ``mask`` gets the causal mask on top of it: an
  attention that is always causal.

:func:`variants` lists these runs for one call, as (mistake, args, kwargs); the mistake's ``id`` names the run
(``setting_applied:causal``) so that a recording reference can store its output; :func:`named` turns a match
back into the family the results carry.
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from .mistakes import generic
from .mistakes.model import Mistake


@lru_cache(maxsize=None)
def signature(module: str, function: str) -> inspect.Signature | None:
    """The reference function's signature (None where the solutions are not installed, or for a method)."""
    try:
        return inspect.signature(getattr(importlib.import_module(f"solutions.{module}"), function))
    except (ImportError, AttributeError, TypeError, ValueError):
        return None


def _shown(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"a {'x'.join(map(str, value.shape)) or '0-d'} array"
    return repr(value)


def _is_default(value: Any, default: Any) -> bool:
    if value is default:
        return True
    if isinstance(value, np.ndarray) or isinstance(default, np.ndarray) or default is None or value is None:
        return False
    try:
        return bool(value == default) and type(value) is type(default)
    except (TypeError, ValueError):
        return False


def _causal(arguments: dict) -> np.ndarray | None:
    """The causal mask of the call's (n_q, n_k): from a given mask's last two axes, else from axis -2 of the
    queries and keys (``Q`` and ``K``, or the sequence ``X``, and ``Z`` when another one answers)."""
    mask = arguments.get("mask")
    if isinstance(mask, np.ndarray) and mask.ndim >= 2:
        n_q, n_k = mask.shape[-2:]
    else:
        asks, answers = ("Q", "K") if "Q" in arguments else ("X", "Z" if "Z" in arguments else "X")
        queries, keys = arguments.get(asks), arguments.get(answers)
        if not (isinstance(queries, np.ndarray) and isinstance(keys, np.ndarray) and min(queries.ndim, keys.ndim) >= 2):
            return None
        n_q, n_k = queries.shape[-2], keys.shape[-2]
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)


def variants(module: str, function: str, args: tuple, kwargs: dict) -> list[tuple[Mistake, tuple, dict]]:
    """The other settings of one call, as (mistake naming the run, args, kwargs)."""
    found = signature(module, function)
    if found is None:
        return []
    try:
        bound = found.bind(*args, **kwargs)
    except TypeError:
        return []
    given = dict(bound.arguments)
    runs = []

    def run(family: Mistake, name: str, value: Any, looks_like: str) -> None:
        changed = found.bind(**{**given, name: value})
        runs.append((replace(family, id=f"{family.id}:{name}", looks_like=looks_like), changed.args, changed.kwargs))

    for name, parameter in found.parameters.items():
        default = parameter.default
        if default is inspect.Parameter.empty or parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD,
                                                                        parameter.KEYWORD_ONLY):
            continue
        value = given.get(name, default)
        if not _is_default(value, default):
            run(generic.SETTING_IGNORED, name, default,
                f"the argument {name}={_shown(value)} made no difference: the result is the one for {name}={default!r}")
            if name == "mask" and isinstance(value, np.ndarray) and value.dtype == np.bool_:
                causal = _causal(given)
                if causal is not None:
                    run(generic.SETTING_APPLIED, name, value & causal,
                        "causal masking was applied on top of the mask the call gave (the function was always causal)")
        elif isinstance(default, bool):
            run(generic.SETTING_APPLIED, name, not default,
                f"{name}={not default} was applied although the call said {name}={default}")
        elif name == "mask" and default is None:
            causal = _causal(given)
            if causal is not None:
                run(generic.SETTING_APPLIED, name, causal,
                    "causal masking was applied although the call gave no mask (mask=None)")
    return runs


def named(run: Mistake) -> Mistake:
    """The family a matching run is reported as (its id without the setting's name)."""
    return replace(run, id=run.id.split(":", 1)[0])
