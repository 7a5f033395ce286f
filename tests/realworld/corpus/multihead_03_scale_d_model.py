"""Multi-head attention whose heads divide by sqrt(d_model), the "d_k" of the single-head formula.

Bug: scores scaled by 1/sqrt(d_model) instead of 1/sqrt(d_head).
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "multihead", "mistake": "multihead_scale_d_model"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    grouped = X.reshape(X.shape[:-1] + (n_heads, d_model // n_heads))   # (..., n, h, d_head)
    return np.moveaxis(grouped, -2, -3)                                  # (..., h, n, d_head)


def merge_heads(X):
    X = np.asarray(X)
    tokens_first = np.moveaxis(X, -3, -2)                                # (..., n, h, d_head)
    return tokens_first.reshape(tokens_first.shape[:-2] + (-1,))

def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    d_model = X.shape[-1]
    Q = split_heads(X @ W_Q, n_heads)
    K = split_heads(X @ W_K, n_heads)
    V = split_heads(X @ W_V, n_heads)
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(d_model)
    if mask is not None:
        scores = np.where(np.expand_dims(np.asarray(mask, dtype=bool), -3), scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return merge_heads(weights @ V) @ W_O, weights
