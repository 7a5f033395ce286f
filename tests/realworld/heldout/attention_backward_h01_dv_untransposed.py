"""Held-out: dV written ``P @ dO`` (shapes line up only when n_q == n_k), the rest as in the usual derivation."""
import math

import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "attention_backward", "mistake": "backward_dv_not_transposed"}


def softmax_backward(y, dy, axis=-1):
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError("y and dy must have the same shape")
    return y * (dy - np.sum(y * dy, axis=axis, keepdims=True))


def attention_backward(Q, K, V, dO, mask=None):
    Q, K, V, dO = (np.asarray(a) for a in (Q, K, V, dO))
    out, P = scaled_dot_product_attention(Q, K, V, mask)
    if dO.shape != out.shape:
        raise ValueError("dO must have the output's shape")
    dO = dO.astype(out.dtype)
    dV = P @ dO
    dP = dO @ np.swapaxes(V, -1, -2).astype(out.dtype)
    dS = softmax_backward(P, dP) / math.sqrt(Q.shape[-1])
    dQ = dS @ K.astype(out.dtype)
    dK = np.swapaxes(dS, -1, -2) @ Q.astype(out.dtype)
    return dQ, dK, dV
