"""Held-out #2: a sliding-window mask from a causal-LM codebase, ``(j <= i) & (i - j < window)`` returned
whatever ``causal`` says: the bidirectional window never lets a query see the keys after it."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "position_bias", "mistake": "window_only_causal"}


def alibi_slopes(n_heads):
    if n_heads < 1:
        raise ValueError("n_heads must be at least 1")

    def pow2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(pow2(n_heads))
    closest = 2 ** math.floor(math.log2(n_heads))
    return np.array(pow2(closest) + pow2(2 * closest)[0::2][: n_heads - closest])


def alibi_bias(n_heads, n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rel = np.arange(n_k)[None, :] - (np.arange(n_q) + n_k - n_q)[:, None]
    return -alibi_slopes(n_heads)[:, None, None] * np.abs(rel)


def sliding_window_mask(n, window, causal=True):
    if window < 1:
        raise ValueError("window must be at least 1")
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return (j <= i) & (i - j < window)


def biased_attention(Q, K, V, bias=None, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = (Q @ np.swapaxes(K, -1, -2)) * (1.0 / math.sqrt(Q.shape[-1]))
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if bias is not None:
        bias = np.asarray(bias)
        try:
            ok = np.broadcast_shapes(bias.shape, scores.shape) == scores.shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError("bias does not broadcast to the scores")
        scores = scores + bias.astype(scores.dtype)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    w = softmax(scores, axis=-1)
    return w @ V, w

