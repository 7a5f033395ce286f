"""Held-out #3: the "naive self-attention backpropagation" of a tutorial script (``P = softmax(Q K^T)``, then
``dV = P^T dO``, ``dS`` through the softmax, ``dQ = dS K``, ``dK = dS^T Q``) written without the 1/sqrt(d_k)
scale, in the recomputed forward pass and in the gradients alike."""
import numpy as np

EXPECTED = {"exercise": "attention_backward", "mistake": "backward_no_scale"}


def softmax_backward(y, dy, axis=-1):
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError("y and dy must have the same shape")
    dt = np.result_type(y, dy, 1.0)
    y, dy = y.astype(dt), dy.astype(dt)
    return y * (dy - np.sum(y * dy, axis=axis, keepdims=True))


def _softmax(s):
    top = np.max(s, axis=-1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(top), top, 0))
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def attention_backward(Q, K, V, dO, mask=None):
    Q, K, V, dO = (np.asarray(a) for a in (Q, K, V, dO))
    dt = np.result_type(Q, K, V, dO, 1.0)
    Q, K, V, dO = (a.astype(dt) for a in (Q, K, V, dO))
    if dO.shape != (*Q.shape[:-1], V.shape[-1]):
        raise ValueError("dO must have the output's shape")
    S = Q @ np.swapaxes(K, -1, -2)
    if mask is not None:
        S = np.where(np.asarray(mask, dtype=bool), S, -np.inf)
    P = _softmax(S)
    dV = np.swapaxes(P, -1, -2) @ dO
    dS = softmax_backward(P, dO @ np.swapaxes(V, -1, -2))
    return dS @ K, np.swapaxes(dS, -1, -2) @ Q, dV
