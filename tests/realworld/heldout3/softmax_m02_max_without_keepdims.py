"""Held-out #3: an interview-style softmax that takes the row maximum and the row sum without ``keepdims``, then
adds the axis back by hand with ``[:, None]`` on the sum only: the maximum broadcasts along the wrong axis."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_no_keepdims"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    top = np.max(x, axis=axis)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(x - top)
    return e / np.expand_dims(np.sum(e, axis=axis), axis)
