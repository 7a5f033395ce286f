"""Held-out #3: ALiBi slopes as ``ratio ** i`` for ``i = 1..n`` with ``ratio = 2 ** (-8 / n)`` for any number of
heads (a position module of a small GPT codebase): right for powers of two, one geometric sequence otherwise,
where the paper interleaves the next power of two's slopes."""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "position_bias", "mistake": "alibi_slopes_one_sequence"}


def alibi_slopes(n_heads):
    if n_heads < 1:
        raise ValueError("n_heads must be at least 1")
    ratio = 2.0 ** (-8.0 / n_heads)
    return np.array([ratio ** i for i in range(1, n_heads + 1)])


def alibi_bias(n_heads, n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    slopes = alibi_slopes(n_heads)
    dist = (np.arange(n_q) + (n_k - n_q))[:, None] - np.arange(n_k)[None, :]
    return -slopes[:, None, None] * np.abs(dist)


def sliding_window_mask(n, window, causal=True):
    if window < 1:
        raise ValueError("window must be at least 1")
    offset = np.arange(n)[:, None] - np.arange(n)[None, :]
    return ((offset >= 0) & (offset < window)) if causal else (np.abs(offset) < window)


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
