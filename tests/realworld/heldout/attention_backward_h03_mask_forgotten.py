"""Held-out: the backward pass recomputes the forward weights itself and forgets the mask (the forward pass of the
same author applied it)."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention_backward", "mistake": "backward_mask_ignored"}


def softmax_backward(y, dy, axis=-1):
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError("shape mismatch")
    dot = (y * dy).sum(axis=axis, keepdims=True)
    return y * dy - y * dot


def attention_backward(Q, K, V, dO, mask=None):
    Q, K, V, dO = (np.asarray(a) for a in (Q, K, V, dO))
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    scale = 1.0 / math.sqrt(Q.shape[-1])
    P = softmax((Q @ np.swapaxes(K, -1, -2)) * scale, axis=-1)
    if dO.shape != (P @ V).shape:
        raise ValueError("dO shape")
    dO = dO.astype(dt)
    dV = np.swapaxes(P, -1, -2) @ dO
    dS = softmax_backward(P, dO @ np.swapaxes(V, -1, -2)) * scale
    return dS @ K, np.swapaxes(dS, -1, -2) @ Q, dV
