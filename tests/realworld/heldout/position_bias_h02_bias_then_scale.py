"""Held-out: the bias added to the raw dot products and the sum then divided by sqrt(d_k) (the bias gets scaled
too). Style: ``(q @ k.T + alibi) / sqrt(d)`` one-liners."""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "position_bias", "mistake": "bias_before_scale"}


def alibi_slopes(n_heads):
    if n_heads < 1:
        raise ValueError("need at least one head")

    def pow2(n):
        return [2 ** (-8 * (i + 1) / n) for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(pow2(n_heads))
    m = 2 ** int(math.log2(n_heads))
    return np.array(pow2(m) + pow2(2 * m)[0::2][: n_heads - m])


def alibi_bias(n_heads, n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rel = np.arange(n_k)[None, :] - (np.arange(n_q)[:, None] + n_k - n_q)
    return alibi_slopes(n_heads)[:, None, None] * -np.abs(rel)


def sliding_window_mask(n, window, causal=True):
    if window < 1:
        raise ValueError("window >= 1")
    i, j = np.indices((n, n))
    return (j <= i) & (i - j < window) if causal else np.abs(i - j) < window


def biased_attention(Q, K, V, bias=None, mask=None):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    if Q.dtype.kind != "f":
        Q, K, V = Q.astype(float), K.astype(float), V.astype(float)
    raw = Q @ np.swapaxes(K, -1, -2)
    if bias is not None:
        bias = np.asarray(bias)
        try:
            if np.broadcast_shapes(bias.shape, raw.shape) != raw.shape:
                raise ValueError
        except ValueError:
            raise ValueError("bias does not broadcast to the scores") from None
        raw = raw + bias.astype(raw.dtype)
    scores = raw * (1.0 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights
