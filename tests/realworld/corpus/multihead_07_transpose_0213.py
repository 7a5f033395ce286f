"""Multi-head attention with the batch axis hard-coded: `reshape(B, N, h, d).transpose(0, 2, 1, 3)`
(the TensorFlow-tutorial layout ported to numpy).

Bug: only 3-D (batch, n, d_model) inputs work; unbatched (n, d_model) input raises.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "multihead", "mistake": "split_heads_hard_coded_axes"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    B, N, D = X.shape
    if n_heads <= 0 or D % n_heads:
        raise ValueError("D must be divisible by n_heads")
    return X.reshape(B, N, n_heads, D // n_heads).transpose(0, 2, 1, 3)


def merge_heads(X):
    X = np.asarray(X)
    B, h, N, d = X.shape
    return X.transpose(0, 2, 1, 3).reshape(B, N, h * d)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    q, k, v = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    d_k = q.shape[-1]
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool)[:, None] if np.ndim(mask) == 3 else mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return merge_heads(weights @ v) @ np.asarray(W_O), weights
