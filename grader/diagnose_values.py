"""Wrong values of the right shape that the reference's own result explains, read another way (no code runs).

* **The trailing part of an axis ignored**: along one axis, the student's result agrees with the reference on a
  leading part (entries ``0 .. k-1``) and differs on every entry after it, which all hold one value (zeros, NaN):
  code that processes whole blocks only (``range(n // block)``) or stops one short (``range(n - 1)``) and leaves
  the rest as it was allocated. (A trailing part that is merely wrong is no evidence: RoPE's position 0, or a
  causal first row, is right under many mistakes.)
* **Transposed as a whole**: a square result that equals the reference's with its last two axes swapped (a
  gradient computed as ``A.T @ B`` where ``B.T @ A`` was meant, a product in the other order).

Both compare at the diagnostic tolerance (``grader.compare``) and cost a few vectorised comparisons of arrays the
check already holds.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .compare import diagnostic_tolerance, explains
from .mistakes import generic
from .mistakes.model import Mistake


def _close_along(got: np.ndarray, reference: np.ndarray, axis: int) -> np.ndarray:
    """For each position along ``axis``: True when every entry of that slice agrees at the diagnostic tolerance."""
    rtol, atol = diagnostic_tolerance(got, reference)
    with np.errstate(all="ignore"):
        close = np.isclose(got.astype(np.float64), reference.astype(np.float64), rtol=rtol, atol=atol,
                           equal_nan=True)
    return np.asarray(np.moveaxis(close, axis, 0).reshape(close.shape[axis], -1).all(axis=1))


def _as_allocated(tail: np.ndarray) -> bool:
    """True when every entry of ``tail`` holds one value (zeros, NaN...): left as the result was allocated."""
    flat = tail.ravel()
    return bool(np.all(np.isnan(flat))) if np.isnan(flat[0]) else bool(np.all(flat == flat[0]))


def tail_ignored(got: np.ndarray, reference: np.ndarray) -> Mistake | None:
    """The axis whose leading entries are right and trailing entries all wrong (the last axis first)."""
    if got.shape != reference.shape or got.dtype.kind not in "fc" or reference.dtype.kind not in "fc":
        return None
    for axis in reversed(range(got.ndim)):
        length = got.shape[axis]
        if length < 2:
            continue
        close = _close_along(got, reference, axis)
        right = int(np.argmin(close)) if not close.all() else length
        if 0 < right < length and not close[right:].any() and _as_allocated(np.take(got, range(right, length), axis)):
            return replace(generic.AXIS_TAIL_IGNORED, looks_like=(
                f"along axis {axis - got.ndim} (length {length}) the first {right} entries are right and the last "
                f"{length - right} are not: the trailing part of that axis was never processed"))
    return None


def transposed(got: np.ndarray, reference: np.ndarray) -> Mistake | None:
    """The reference's result with its last two axes swapped (square results only: other shapes differ)."""
    if got.ndim < 2 or got.shape[-1] != got.shape[-2] or got.shape != reference.shape:
        return None
    swapped = np.swapaxes(reference, -1, -2)
    if explains(got, swapped, reference):
        return replace(generic.VALUES_TRANSPOSED, looks_like=(
            f"the result is the right {got.shape[-2]}x{got.shape[-1]} matrix transposed: its rows are the "
            f"right result's columns"))
    return None


def explain(got: np.ndarray, reference) -> Mistake | None:
    """The first of the two readings that explains ``got`` (None when neither does)."""
    if not isinstance(reference, np.ndarray) or not isinstance(got, np.ndarray):
        return None
    return transposed(got, reference) or tail_ignored(got, reference)
