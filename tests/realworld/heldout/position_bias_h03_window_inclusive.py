"""Held-out: sliding window written ``i - j <= window`` (window + 1 keys), as in several local-attention snippets."""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "position_bias", "mistake": "window_off_by_one"}


def alibi_slopes(n_heads):
    if n_heads < 1:
        raise ValueError("n_heads >= 1")
    m = 1 << (n_heads.bit_length() - 1)
    base = 2.0 ** (-8.0 * np.arange(1, m + 1) / m)
    if m == n_heads:
        return base
    extra = 2.0 ** (-8.0 * np.arange(1, 2 * m + 1) / (2 * m))
    return np.concatenate([base, extra[0::2][: n_heads - m]])


def alibi_bias(n_heads, n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    qpos = np.arange(n_q) + n_k - n_q
    return -alibi_slopes(n_heads)[:, None, None] * np.abs(qpos[:, None] - np.arange(n_k)[None, :])


def sliding_window_mask(n, window, causal=True):
    if window < 1:
        raise ValueError("window must be at least 1")
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    if causal:
        return (j <= i) & (i - j <= window)
    return np.abs(i - j) <= window


def biased_attention(Q, K, V, bias=None, mask=None):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    scores = Q @ np.swapaxes(K, -1, -2) * (1.0 / math.sqrt(Q.shape[-1]))
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if bias is not None:
        bias = np.asarray(bias)
        try:
            ok = np.broadcast_shapes(bias.shape, scores.shape) == scores.shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError("bias does not broadcast")
        scores = scores + bias.astype(scores.dtype)
    if mask is not None:
        scores = apply_mask(scores, mask)
    w = softmax(scores, axis=-1)
    return w @ V, w
