"""Held-out #2: a backward pass from a 2-D derivation that writes ``dK = dS.T @ Q``; on a batch ``.T`` reverses
every axis, so the matmul of the batched case fails."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention_backward", "mistake": "error_matmul_shapes"}


def _forward_weights(Q, K, mask):
    scores = (Q @ np.swapaxes(K, -1, -2)) * (1.0 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    return softmax(scores, axis=-1)


def softmax_backward(y, dy, axis=-1):
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError("y and dy must have the same shape")
    dt = np.result_type(y, dy, 1.0)
    y, dy = y.astype(dt), dy.astype(dt)
    return y * (dy - (dy * y).sum(axis=axis, keepdims=True))


def attention_backward(Q, K, V, dO, mask=None):
    Q, K, V, dO = (np.asarray(a) for a in (Q, K, V, dO))
    dt = np.result_type(Q, K, V, dO, 1.0)
    Q, K, V, dO = (a.astype(dt) for a in (Q, K, V, dO))
    if dO.shape != Q.shape[:-1] + V.shape[-1:]:
        raise ValueError("dO must have the shape of the output")
    P = _forward_weights(Q, K, mask)
    dV = np.swapaxes(P, -1, -2) @ dO
    dP = dO @ np.swapaxes(V, -1, -2)

    dS = softmax_backward(P, dP) * (1.0 / math.sqrt(Q.shape[-1]))
    return dS @ K, dS.T @ Q, dV
