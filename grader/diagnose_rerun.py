"""Wrong values explained by the reference run on a changed call: the same function, other inputs.

* **Scaled by another size**: attention scores scaled by ``1/sqrt(s)`` for a size ``s`` of the call other than the
  query/key width ``d_k`` (the number of keys or queries, the value width, the model width). The scores are
  bilinear in the queries, so the reference run with its query argument multiplied by ``sqrt(d_k / s)`` returns
  exactly what that scale gives. The query argument and ``d_k`` come from the call: ``Q`` (or ``q``) and its last
  axis; else ``W_Q``, whose last axis is split over ``n_heads`` when the call has them.
* **The trailing part of an input ignored**: the reference run on the call's arrays cut short along one axis (to a
  multiple of an integer argument such as ``block_size``, or one entry shorter), as code that loops over whole
  blocks only, or stops one short, computes: the arrays sharing that axis (same length at the same place from the
  end) are cut together, or all but one of them (the keys and values, not the queries of the same length).

:func:`variants` lists the runs of one call as (mistake, args, kwargs), at most :data:`MAX_SCALES` and
:data:`MAX_CUTS`; each mistake's ``id`` names its run (``scale_by_other_size:6``) so a recording reference can
store its output, and :func:`named` gives back the family the results carry.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import replace
from typing import Any

import numpy as np

from .diagnose_shape import _sources
from .mistakes import generic
from .mistakes.model import Mistake

MAX_SCALES, MAX_CUTS = 6, 8
QUERIES = ("Q", "q")       # query arrays: d_k is their last axis
PROJECTIONS = ("W_Q",)     # query projections: d_k is their last axis over n_heads


def _width(arguments: dict[str, Any]) -> tuple[str, int] | None:
    """(name of the query argument, d_k) of the call, or None when it has no query argument."""
    for name in QUERIES:
        value = arguments.get(name)
        if isinstance(value, np.ndarray) and value.ndim >= 1 and value.dtype.kind in "fiu":
            return name, int(value.shape[-1])
    for name in PROJECTIONS:
        value = arguments.get(name)
        if isinstance(value, np.ndarray) and value.ndim == 2 and value.dtype.kind in "fiu":
            heads = arguments.get("n_heads", 1)
            if isinstance(heads, (int, np.integer)) and heads >= 1 and value.shape[-1] % heads == 0:
                return name, int(value.shape[-1] // heads)
    return None


def scales(arguments: dict[str, Any]) -> list[tuple[Mistake, dict]]:
    """The call with its scores scaled by ``1/sqrt(s)`` for each other size ``s`` of the call."""
    found = _width(arguments)
    if found is None:
        return []
    name, d_k = found
    sizes: dict[int, str] = {}
    for size, where in _sources({k: v for k, v in arguments.items() if k != name}):
        if size > 1 and size != d_k:
            sizes.setdefault(size, where)
    query = arguments[name]
    runs = []
    for size, where in list(sizes.items())[:MAX_SCALES]:
        factor = math.sqrt(d_k / size)
        changed = query * (np.asarray(factor, dtype=query.dtype) if query.dtype.kind == "f" else factor)
        runs.append((replace(generic.SCALE_BY_OTHER_SIZE, id=f"{generic.SCALE_BY_OTHER_SIZE.id}:{size}", looks_like=(
            f"the scores look scaled by 1/sqrt({size}), and {size} is {where}: another size than the width of "
            f"the queries and keys ({d_k})")), {**arguments, name: changed}))
    return runs


def cuts(arguments: dict[str, Any]) -> list[tuple[Mistake, dict]]:
    """The call with the last entries of one axis of its arrays left out (see the module docstring)."""
    steps = sorted({int(v) for v in arguments.values()
                    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and v > 1})
    groups: dict[tuple[int, int], list[str]] = {}
    for name, value in arguments.items():
        if isinstance(value, np.ndarray) and value.ndim >= 2 and value.dtype.kind in "fiu":
            for axis in range(-value.ndim, -1):   # never the features (last axis)
                groups.setdefault((axis, int(value.shape[axis])), []).append(name)
    runs = []
    for (axis, length), names in groups.items():
        lengths = [length - length % step for step in steps if 0 < length - length % step < length]
        for short in dict.fromkeys([*lengths, length - 1]):
            subsets = [names] + ([[n for n in names if n != left] for left in names] if 1 < len(names) <= 3 else [])
            for subset in subsets:
                cut = {name: np.take(arguments[name], np.arange(short), axis=axis) for name in subset}
                shown = " and ".join(subset)
                runs.append((replace(generic.INPUT_TAIL_IGNORED, id=f"{generic.INPUT_TAIL_IGNORED.id}:{axis}:{short}:"
                                     f"{shown}", looks_like=(
                    f"the result is the one for the call with only the first {short} of the {length} entries along "
                    f"axis {axis} of {shown}: the last {length - short} were never used")), {**arguments, **cut}))
    return runs[:MAX_CUTS]


def variants(signature: inspect.Signature | None, args: tuple, kwargs: dict) -> list[tuple[Mistake, tuple, dict]]:
    """The changed calls to try, cheapest and likeliest first (scales, then cuts), as (mistake, args, kwargs)."""
    if signature is None:
        return []
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return []
    arguments = dict(bound.arguments)
    runs = []
    for mistake, changed in (*scales(arguments), *cuts(arguments)):
        call = signature.bind(**changed)
        runs.append((mistake, call.args, call.kwargs))
    return runs


def named(run: Mistake) -> Mistake:
    """The family a matching run is reported as (its id without the run's details)."""
    return replace(run, id=run.id.split(":", 1)[0])
