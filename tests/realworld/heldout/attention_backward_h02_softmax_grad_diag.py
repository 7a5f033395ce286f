"""Held-out: the softmax gradient taken as its diagonal only, ``y * (1 - y) * dy`` (the sigmoid-like shortcut of
many hand derivations)."""
import math

import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "attention_backward", "mistake": "backward_softmax_diagonal_only"}


def softmax_backward(y, dy, axis=-1):
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError(f"shapes {y.shape} and {dy.shape} differ")
    return y * (1 - y) * dy


def attention_backward(Q, K, V, dO, mask=None):
    out, P = scaled_dot_product_attention(Q, K, V, mask)
    dO = np.asarray(dO)
    if dO.shape != out.shape:
        raise ValueError("dO has the wrong shape")
    Q, K, V, dO = (np.asarray(a).astype(out.dtype) for a in (Q, K, V, dO))
    dV = np.swapaxes(P, -1, -2) @ dO
    dS = softmax_backward(P, dO @ np.swapaxes(V, -1, -2)) * (1.0 / math.sqrt(Q.shape[-1]))
    return dS @ K, np.swapaxes(dS, -1, -2) @ Q, dV
