"""Attention that masks the weights after the softmax (`weights * mask`), the pitfall most masking
tutorials warn about.

Bug: rows no longer sum to 1 once forbidden keys are zeroed afterwards.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_after_softmax"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = Q @ np.swapaxes(K, -1, -2) * (1.0 / math.sqrt(Q.shape[-1]))
    weights = softmax(scores, axis=-1)
    if mask is not None:
        weights = weights * np.asarray(mask, dtype=bool)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
