"""Explain a result of the wrong shape from the call's own argument shapes.

Given the shape the student returned, the shape the reference returned and the call's named arguments,
:func:`explain` says which class of shape mistake it is (``grader.mistakes.generic``):

* the same sizes in another order: the last two swapped (transposed), two other axes swapped (named, with
  their sizes), or a longer reordering;
* one axis fewer: which axis (and its size) is missing, e.g. averaged or summed over the heads, or reduced
  without ``keepdims``;
* one axis more: where the extra axis is and its size (a leading axis of size 1 added);
* one axis of another length: its length, and which argument that length belongs to when one does (a size of
  another argument's axis, an integer argument, the largest entry of an integer list such as ``lengths``).

Only shapes and integers are read; nothing here runs code.
"""
from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any

import numpy as np

from .mistakes import generic
from .mistakes.model import Mistake

MAX_LIST = 4096  # entries of an integer list argument looked at for its largest value


def named_arguments(signature: inspect.Signature | None, args: tuple, kwargs: dict) -> dict[str, Any]:
    """The call's arguments by parameter name (positional ones as ``arg0``... when the signature is unknown)."""
    try:
        if signature is not None:
            return dict(signature.bind_partial(*args, **kwargs).arguments)
    except (TypeError, ValueError):
        pass
    return {**{f"arg{index}": value for index, value in enumerate(args)}, **kwargs}


def _sources(arguments: dict[str, Any]) -> list[tuple[int, str]]:
    """(size, where it comes from) for every size the call's arguments state."""
    found = []
    for name, value in arguments.items():
        if isinstance(value, np.ndarray):
            if value.dtype.kind in "iu" and value.ndim == 1 and 0 < value.size <= MAX_LIST:
                found.append((int(value.max()), f"max({name})"))
            found += [(size, f"{name}'s axis {axis - value.ndim} (size {size})")
                      for axis, size in enumerate(value.shape)]
        elif isinstance(value, (bool, np.bool_)):
            continue
        elif isinstance(value, (int, np.integer)):
            found.append((int(value), name))
        elif isinstance(value, (list, tuple)) and 0 < len(value) <= MAX_LIST and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
            found.append((int(max(value)), f"max({name})"))
    return found


def _swapped(got: tuple, expected: tuple) -> tuple[int, int] | None:
    differ = [axis for axis, (g, e) in enumerate(zip(got, expected)) if g != e]
    if len(differ) == 2 and got[differ[0]] == expected[differ[1]] and got[differ[1]] == expected[differ[0]]:
        return differ[0], differ[1]
    return None


def explain(got: tuple, expected: tuple, arguments: dict[str, Any]) -> Mistake | None:
    """The shape mistake behind ``got`` where ``expected`` was due (None when the shapes agree)."""
    got, expected = tuple(int(s) for s in got), tuple(int(s) for s in expected)
    if got == expected:
        return None
    seen = f"(got {got}, expected {expected})"
    if len(got) == len(expected) and sorted(got) == sorted(expected):
        pair = _swapped(got, expected)
        if pair is not None and pair == (len(got) - 2, len(got) - 1):
            return replace(generic.SHAPE_TRANSPOSED, looks_like=f"{generic.SHAPE_TRANSPOSED.looks_like} {seen}")
        if pair is not None:
            first, second = pair
            return replace(generic.SHAPE_AXES_SWAPPED, looks_like=(
                f"axes {first - len(got)} (size {expected[first]}) and {second - len(got)} (size {expected[second]}) "
                f"of the result are in each other's place {seen}"))
        return replace(generic.SHAPE_AXES_REORDERED, looks_like=f"{generic.SHAPE_AXES_REORDERED.looks_like} {seen}")
    if len(got) == len(expected) - 1:
        for axis in range(len(expected)):
            if expected[:axis] + expected[axis + 1:] == got:
                where = axis - len(expected)
                return replace(generic.SHAPE_AXIS_MISSING, looks_like=(
                    f"axis {where} of the result (size {expected[axis]}) is missing: it was summed, averaged or "
                    f"indexed away, or a reduction dropped it (keepdims) {seen}"))
    if len(got) == len(expected) + 1:
        for axis in range(len(got)):
            if got[:axis] + got[axis + 1:] == expected:
                what = "a leading axis" if axis == 0 else f"an axis at position {axis}"
                return replace(generic.SHAPE_AXIS_EXTRA, looks_like=(
                    f"the result has {what} of size {got[axis]} too many {seen}"))
    if len(got) == len(expected):
        differ = [axis for axis, (g, e) in enumerate(zip(got, expected)) if g != e]
        if len(differ) == 1:
            axis = differ[0]
            sources = [where for size, where in _sources(arguments) if size == got[axis] != expected[axis]]
            if sources:
                return replace(generic.SHAPE_SIZE_FROM_ARGUMENT, looks_like=(
                    f"axis {axis - len(got)} of the result has length {got[axis]}, which is "
                    f"{' or '.join(dict.fromkeys(sources[:2]))}, where {expected[axis]} was due {seen}"))
            return replace(generic.SHAPE_SIZE, looks_like=(
                f"axis {axis - len(got)} of the result has length {got[axis]} where {expected[axis]} was due {seen}"))
    return None
