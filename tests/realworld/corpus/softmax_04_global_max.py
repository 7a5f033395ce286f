"""Softmax that subtracts np.max(x) of the whole array (the vector recipe applied to a matrix).

Bug: the global maximum; a row far below it underflows to 0/0.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_global_max"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    shiftx = x - np.max(x)
    exps = np.exp(shiftx)
    return exps / np.sum(exps, axis=axis, keepdims=True)
