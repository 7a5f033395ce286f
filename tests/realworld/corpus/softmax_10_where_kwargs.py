"""Correct softmax using ufunc `where=`/`out=` keywords and np.errstate (the "no temporary arrays"
style of performance-minded numpy code), on a copy of the input.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def softmax(x, axis=-1):
    src = np.asarray(x)
    work = src.astype(src.dtype if src.dtype.kind == "f" else np.float64, copy=True)
    hi = np.max(work, axis=axis, keepdims=True)
    np.subtract(work, hi, out=work, where=np.isfinite(hi))
    with np.errstate(invalid="ignore"):
        np.exp(work, out=work)
    den = np.sum(work, axis=axis, keepdims=True)
    return np.divide(work, den, out=np.zeros_like(work), where=den > 0)
