"""Attention with `np.where(mask, scores, -1e9)` and its own stable softmax (a masking tutorial's recipe).

Bug: the finite fill makes a query with no allowed key attend uniformly instead of getting zeros.
"""
import math

import numpy as np

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_large_negative"}


def softmax(x, axis=-1):
    x = x - np.max(x, axis=axis, keepdims=True)
    exp = np.exp(x)
    return exp / np.sum(exp, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None):
    q, k, v = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) * (1.0 / math.sqrt(d_k))
    if np.asarray(scores).dtype.kind != "f":
        scores = scores.astype(np.float64)
    if mask is not None:
        scores = np.where(mask, scores, -1e9).astype(scores.dtype)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
