"""Held-out #3: a sliding window built as ``abs(i - j) < window`` (the symmetric band of encoder-style local
attention) whatever ``causal`` says: with causal=True the future keys inside the band stay visible."""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "position_bias", "mistake": "window_not_causal"}


def alibi_slopes(n_heads):
    if n_heads < 1:
        raise ValueError("n_heads must be at least 1")

    def geometric(n):
        start = 2.0 ** (-8.0 / n)
        return [start ** (i + 1) for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(geometric(n_heads))
    below = 2 ** math.floor(math.log2(n_heads))
    return np.array(geometric(below) + geometric(2 * below)[0::2][: n_heads - below])


def alibi_bias(n_heads, n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    slopes = alibi_slopes(n_heads)
    dist = (np.arange(n_q) + (n_k - n_q))[:, None] - np.arange(n_k)[None, :]
    return -slopes[:, None, None] * np.abs(dist)


def sliding_window_mask(n, window, causal=True):
    if window < 1:
        raise ValueError("window must be at least 1")
    offset = np.arange(n)[:, None] - np.arange(n)[None, :]
    return np.abs(offset) < window


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
        scores = scores + bias.astype(scores.dtype, copy=False)
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights
