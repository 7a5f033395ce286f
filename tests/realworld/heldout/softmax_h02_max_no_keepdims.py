"""Held-out: max taken along the axis without keepdims and subtracted directly (works only when the broadcast happens
to line up). Style: quick answers that write ``x - x.max(axis=axis)``."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_no_keepdims"}


def softmax(x, axis=-1):
    x = np.array(x, dtype=float) if not isinstance(x, np.ndarray) or x.dtype.kind != "f" else x
    m = x.max(axis=axis)
    m = np.where(np.isfinite(m), m, 0)
    ex = np.exp(x - m)
    s = ex.sum(axis=axis, keepdims=True)
    return np.divide(ex, s, out=np.zeros_like(ex), where=s > 0)
