"""The stable softmax exactly as printed in most tutorials: max subtracted with keepdims, no guard.

Bug: a slice that is entirely -inf gives NaN (its max is -inf).
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_all_inf_nan"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(float)
    x = x - np.max(x, axis=axis, keepdims=True)
    exp = np.exp(x)
    return exp / np.sum(exp, axis=axis, keepdims=True)
