"""Softmax with the reduction axis hard-coded to 1 (`expand_dims(sum(t, axis=1), 1)`), as in a 2-D notebook.

Bug: right for 2-D input with axis=-1 only; a 1-D vector raises AxisError, 3-D normalises the wrong axis.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_wrong_axis"}


def softmax(x, axis=-1):
    z = np.asarray(x)
    if z.dtype.kind != "f":
        z = z.astype(np.float64)
    m = np.expand_dims(np.max(z, axis=1), 1)
    m = np.where(np.isfinite(m), m, 0)
    t = np.exp(z - m)
    s = np.expand_dims(np.sum(t, axis=1), 1)
    return np.divide(t, s, out=np.zeros_like(t), where=s > 0)
