"""GPT-style "causal_attention": the lower-triangular mask is built inside the function, every call.

Bug: causal masking applied always (also without a mask, and on top of a padding mask).
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_always_causal"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    n_q, n_k = Q.shape[-2], K.shape[-2]
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(Q.shape[-1])
    allowed = np.tril(np.ones((n_q, n_k), dtype=bool))
    if mask is not None:
        allowed = allowed & np.asarray(mask, dtype=bool)
    scores = np.where(allowed, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
