"""Code that works for one number of leading axes only: the student's function run again at another rank.

When a check's call failed with a wrong shape, an exception, or wrong values nothing else explains,
:func:`explain` makes the same call with one leading axis fewer (the first entry of the call's highest-rank
arrays, weights left as they are) and one more (those arrays stacked twice), runs the student's function on each
(through the ``impl`` proxy: in the sandbox, as every student call) and the reference on each (here), and compares
the two here. When
the student's result is right at another rank, the mistake is named with the ranks that work. At most two extra
student calls per failing check; the student's answers only word the message, they never award a point.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .compare import matches, tolerance_for
from .mistakes import generic
from .mistakes.model import Mistake

PARAMETERS = ("weight", "gamma", "beta")  # learned parameters (and every ``W_*``): never given leading axes


def _shown(shape: tuple) -> str:
    return f"({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})"


def variants(args: tuple, kwargs: dict, names: dict | None = None) -> list[tuple[str, tuple, dict, dict]]:
    """(word, args, kwargs, {name: new shape}) for one leading axis fewer and one more, on the call's arrays of the
    highest rank (floats of 1 or more axes, others of 2 or more; weights, and arrays of lower rank such as a mask
    that broadcasts, are kept)."""
    names = names or {}
    named = {**{names.get(index, index): value for index, value in enumerate(args)}, **kwargs}
    arrays = {name: value for name, value in named.items()
              if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and value.ndim >= (1 if value.dtype.kind
                                                                                                  == "f" else 2)
              and not (isinstance(name, str) and (name.startswith("W_") or name in PARAMETERS))}
    if not arrays:
        return []
    top = max(value.ndim for value in arrays.values())
    chosen = [name for name, value in arrays.items() if value.ndim == top]
    runs = []
    for word, change in (("one leading axis more", lambda a: np.stack([a, a])), ("one leading axis fewer",
                                                                                  lambda a: a[0].copy())):
        if word.endswith("fewer") and (top < 3 or len({arrays[n].shape[0] for n in chosen}) != 1):
            continue
        changed = {name: change(arrays[name]) for name in chosen}
        new_args = tuple(changed.get(names.get(index, index), value) for index, value in enumerate(args))
        new_kwargs = {name: changed.get(name, value) for name, value in kwargs.items()}
        runs.append((word, new_args, new_kwargs, {name: changed[name].shape for name in chosen}))
    return runs


def agrees(got: Any, expected: Any) -> bool:
    """``got`` equals ``expected`` (arrays, or tuples of them) within the default tolerance of its dtype: what a
    rerun at another rank is judged by."""
    if isinstance(expected, tuple):
        return isinstance(got, tuple) and len(got) == len(expected) and all(map(agrees, got, expected))
    if not isinstance(expected, np.ndarray) or not isinstance(got, np.ndarray) or got.shape != expected.shape:
        return False
    return matches(got, expected, *tolerance_for(expected.dtype))


def explain(student: Any, reference: Any, args: tuple, kwargs: dict, names: dict) -> Mistake | None:
    """The ranks at which ``student`` (a callable running the student's function) agrees with ``reference``, as a
    mistake, when it agrees at one of them; ``names`` maps positional indices to parameter names for the message."""
    works = []
    for word, new_args, new_kwargs, shapes in variants(args, kwargs, names):
        try:
            expected = reference(*new_args, **new_kwargs)
        except Exception:  # the reference refuses that rank: not a rank the function supports
            continue
        try:
            got = student(*new_args, **new_kwargs)
        except Exception:  # the student's code raised there too (reported by the sandbox): no evidence
            continue
        if agrees(got, expected):
            shown = ", ".join(f"{name} of shape {_shown(shape)}" for name, shape in shapes.items())
            works.append(f"{word} ({shown})")
    if not works:
        return None
    original = ", ".join(f"{name} of shape {_shown(value.shape)}" for name, value in
                         {**{names.get(i, i): v for i, v in enumerate(args)}, **kwargs}.items() if name in shapes)
    return replace(generic.SHAPE_RANK_DEPENDENT, looks_like=(
        f"the same call gives the right result with {' and with '.join(works)}, not with {original}: the code "
        f"works for one number of leading axes only"))
