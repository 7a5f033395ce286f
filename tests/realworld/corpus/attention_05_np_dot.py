"""Attention with np.dot everywhere (`np.dot(query, key.swapaxes(-1, -2))`, `np.dot(weights, value)`).

Bug: np.dot is not a batched matmul: for 3-D inputs it sums over the last axis of the first and the
second-to-last of the second, producing a (B, n, B, n) array.
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_np_dot_batched"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    logits = np.dot(Q, np.swapaxes(K, -1, -2)) * (1.0 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        logits = apply_mask(logits, mask)
    weights = softmax(logits, axis=-1)
    return np.dot(weights, V), weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(np.dot(X, W_Q), np.dot(X, W_K), np.dot(X, W_V), mask)
