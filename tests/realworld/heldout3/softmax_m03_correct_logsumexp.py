"""Held-out #3: softmax as ``exp(x - logsumexp(x))``, the log-sum-exp written out with the row maximum (as
scientific libraries compute it); rows of -inf are left as NaN-free zeros by guarding the maximum. Correct."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        lse = peak + np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True))
    out = np.exp(x - lse)
    return np.where(np.isnan(out), 0, out).astype(x.dtype, copy=False)
