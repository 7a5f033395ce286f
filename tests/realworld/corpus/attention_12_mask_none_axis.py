"""Attention that always gives the mask a leading axis (`mask[None]`), copied from a batched
(B, 1, T, T) notebook.

Bug: an unbatched call with a mask returns arrays with an extra leading axis of size 1.
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_leading_axis"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = Q @ np.swapaxes(K, -1, -2) * (1 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        scores = apply_mask(scores, np.asarray(mask)[None])  # (1, ..., n_q, n_k)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
