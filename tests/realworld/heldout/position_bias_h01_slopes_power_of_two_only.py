"""Held-out: ALiBi slopes from the power-of-two formula only, applied to the nearest power of two below n_heads
(the interleaved extra slopes of the paper's workaround are missing), so 6 heads get 4 slopes."""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "position_bias", "mistake": "shape_size_from_argument"}


def alibi_slopes(n_heads):
    if n_heads < 1:
        raise ValueError("n_heads must be >= 1")
    n = 2 ** math.floor(math.log2(n_heads))
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return np.array([start * start ** i for i in range(n)])


def alibi_bias(n_heads, n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    q = np.arange(n_k - n_q, n_k)[:, None]
    k = np.arange(n_k)[None, :]
    return -alibi_slopes(n_heads)[:, None, None] * np.abs(q - k)


def sliding_window_mask(n, window, causal=True):
    if window < 1:
        raise ValueError("window must be >= 1")
    d = np.subtract.outer(np.arange(n), np.arange(n))
    return ((d >= 0) & (d < window)) if causal else (np.abs(d) < window)


def _fits(bias, scores):
    try:
        return np.broadcast_shapes(bias, scores) == scores
    except ValueError:
        return False


def biased_attention(Q, K, V, bias=None, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    s = Q @ np.swapaxes(K, -1, -2) * (1.0 / math.sqrt(Q.shape[-1]))
    if s.dtype.kind != "f":
        s = s.astype(float)
    if bias is not None:
        if not _fits(np.shape(bias), s.shape):
            raise ValueError("bias does not broadcast to the scores")
        s = s + np.asarray(bias, dtype=s.dtype)
    if mask is not None:
        s = apply_mask(s, mask)
    w = softmax(s, axis=-1)
    return w @ V, w
