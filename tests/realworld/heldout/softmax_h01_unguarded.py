"""Held-out: the textbook stable softmax (max with keepdims, then normalise), no guard for a row that is all -inf.
Style: course notebooks that stop at "subtract the max"."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_all_inf_nan"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    shifted = x - np.amax(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
