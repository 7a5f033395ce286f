"""Held-out #3: a backward pass that recomputes the attention weights with its own scaled softmax and never
applies the ``mask`` it is given (the mask argument kept only for the signature)."""
import math

import numpy as np

EXPECTED = {"exercise": "attention_backward", "mistake": "backward_mask_ignored"}


def softmax_backward(y, dy, axis=-1):
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError("y and dy must have the same shape")
    dt = np.result_type(y, dy, 1.0)
    y, dy = y.astype(dt), dy.astype(dt)
    return y * (dy - np.sum(y * dy, axis=axis, keepdims=True))


def attention_backward(Q, K, V, dO, mask=None):
    Q, K, V, dO = (np.asarray(a) for a in (Q, K, V, dO))
    dt = np.result_type(Q, K, V, dO, 1.0)
    Q, K, V, dO = (a.astype(dt) for a in (Q, K, V, dO))
    if dO.shape != (*Q.shape[:-1], V.shape[-1]):
        raise ValueError("dO must have the output's shape")
    scale = 1.0 / math.sqrt(Q.shape[-1])
    S = (Q @ np.swapaxes(K, -1, -2)) * scale
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    P = e / e.sum(axis=-1, keepdims=True)
    dV = np.swapaxes(P, -1, -2) @ dO
    dS = softmax_backward(P, dO @ np.swapaxes(V, -1, -2))
    return (dS @ K) * scale, (np.swapaxes(dS, -1, -2) @ Q) * scale, dV
