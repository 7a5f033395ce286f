"""Held-out #2: masking by multiplying the scores with the 0/1 mask before the softmax (forbidden scores become
0, a weight of exp(0), instead of -inf)."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_zero"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = np.einsum("...id,...jd->...ij", Q, K) * (1.0 / math.sqrt(Q.shape[-1]))
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if mask is not None:
        scores = scores * np.asarray(mask, dtype=scores.dtype)
    weights = softmax(scores, axis=-1)
    return np.einsum("...ij,...jd->...id", weights, V), weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
