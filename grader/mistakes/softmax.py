"""Classic softmax mistakes (002 "In Code" and its pitfall; 000's unstable softmax)."""
from __future__ import annotations

import numpy as np

from ..compare import Mistake
from . import as_float

WRONG_AXIS = Mistake(
    "softmax_wrong_axis",
    "the softmax normalised a different axis than the `axis` it was given",
    "Which slices must sum to 1? Take the max and the sum along the axis you were asked for.",
)
NO_MAX_SUBTRACTION = Mistake(
    "softmax_no_max_subtraction",
    "exp() overflowed to inf (inf / inf is NaN): the maximum was not subtracted before exp",
    "Softmax does not change when every entry of a slice is shifted by the same constant. "
    "Which constant keeps every exponent at or below 0?",
)
GLOBAL_MAX = Mistake(
    "softmax_global_max",
    "the maximum of the whole array was subtracted, not each slice's own maximum",
    "A slice whose values are far below the global maximum underflows to all zeros; "
    "shift each slice by its own maximum.",
)
NO_KEEPDIMS = Mistake(
    "softmax_no_keepdims",
    "the max or the sum lost the reduced axis, so it broadcast against the wrong axis",
    "After reducing along an axis, keep that axis with size 1 so the result lines up with x.",
)
GLOBAL_SUM = Mistake(
    "softmax_global_sum",
    "every entry was divided by the total of the whole array instead of its own slice's total",
    "Each slice along `axis` must sum to 1 by itself.",
)
ALL_INF_NAN = Mistake(
    "softmax_all_inf_nan",
    "a slice that is entirely -inf came out as NaN (its max is -inf, and -inf - (-inf) is NaN)",
    "A slice with no finite entry has nothing to normalise: shift it by 0 instead of its max, "
    "and return 0 where the sum is 0.",
)


def stable(x, axis=-1) -> np.ndarray:
    """A correct softmax (with the all -inf guard), for building variants."""
    x = as_float(x)
    with np.errstate(all="ignore"):
        m = np.max(x, axis=axis, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)
        e = np.exp(x - m)
        s = np.sum(e, axis=axis, keepdims=True)
        return np.divide(e, s, out=np.zeros_like(e), where=s > 0)


def naive(x, axis=-1) -> np.ndarray:
    """000's softmax: exp(x) / sum(exp(x)), no max subtraction."""
    x = as_float(x)
    with np.errstate(all="ignore"):
        e = np.exp(x)
        return e / np.sum(e, axis=axis, keepdims=True)


def global_max(x, axis=-1, guard=True) -> np.ndarray:
    x = as_float(x)
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x))
        s = np.sum(e, axis=axis, keepdims=True)
        if guard:
            return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
        return e / s


def no_keepdims(x, axis=-1) -> np.ndarray:
    x = as_float(x)
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis))  # broadcasts against the last axis (or fails)
        return e / np.sum(e, axis=axis)


def global_sum(x, axis=-1) -> np.ndarray:
    x = as_float(x)
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e)


def unguarded(x, axis=-1) -> np.ndarray:
    """The 002 softmax as printed: stable, but NaN for an all -inf slice."""
    x = as_float(x)
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)


def candidates(x, axis=-1) -> list:
    """(Mistake, lazy output) pairs for ``softmax(x, axis)``."""
    x = as_float(x)
    ndim = x.ndim
    wrong_axes = [a for a in range(ndim) if a != axis % max(ndim, 1)]
    pairs = [(WRONG_AXIS, (lambda a=a: stable(x, a))) for a in wrong_axes]
    pairs += [
        (NO_MAX_SUBTRACTION, lambda: naive(x, axis)),
        (GLOBAL_MAX, lambda: global_max(x, axis, guard=True)),
        (GLOBAL_MAX, lambda: global_max(x, axis, guard=False)),
        (ALL_INF_NAN, lambda: unguarded(x, axis)),
        (NO_KEEPDIMS, lambda: no_keepdims(x, axis)),
        (GLOBAL_SUM, lambda: global_sum(x, axis)),
    ]
    return pairs
