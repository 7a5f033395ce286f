"""Exercise ``softmax``: a numerically stable softmax.

Subtracting the row's max before ``exp`` changes nothing mathematically and keeps ``exp``
from overflowing. Reading: "Deep Learning" (Goodfellow, Bengio and Courville, 2016), section 4.1.
"""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of ``x`` along ``axis``, stable for huge inputs.

    Parameters
    ----------
    x : array_like, shape (...)
        Scores. ``-inf`` entries get weight 0. Integer or list input is treated as float64.
    axis : int, optional
        The axis that is normalised (default: the last one).

    Returns
    -------
    numpy.ndarray, shape (...) (same as ``x``)
        Non-negative weights that sum to 1 along ``axis``; a slice that is entirely
        ``-inf`` gives all zeros (not NaN). Same float dtype as ``x``; ``x`` is never
        modified.

    Examples
    --------
    >>> softmax([1000.0, 1001.0]).round(4)
    array([0.2689, 0.7311])
    """
    ### BEGIN SOLUTION implement softmax: normalise exp(x) along axis without overflowing for huge x
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    # anchor: softmax.row_max
    row_max = np.max(x, axis=axis, keepdims=True)          # (..., 1, ...) along axis
    # anchor: softmax.finite_shift
    row_max = np.where(np.isfinite(row_max), row_max, 0)  # an all -inf slice: shift by 0, not -inf
    # anchor: softmax.exps
    exps = np.exp(x - row_max)                            # largest entry becomes exp(0) = 1
    # anchor: softmax.totals
    totals = np.sum(exps, axis=axis, keepdims=True)
    # anchor: softmax.return
    return np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)
    ### END SOLUTION
