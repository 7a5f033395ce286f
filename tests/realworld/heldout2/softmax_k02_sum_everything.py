"""Held-out #2: a stable softmax that shifts by the per-axis maximum but divides by ``exps.sum()`` over the whole
array (a scratch-notebook style for a single vector, reused on a matrix)."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_global_sum"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    exps = np.exp(x - m)
    total = exps.sum()
    return exps / total if total > 0 else np.zeros_like(exps)
