"""Multi-head split as a single reshape to (..., n_heads, n, d_head), skipping the transpose.

Bug: the plain reshape mixes tokens and heads (merge_heads itself is right).
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "split_heads_no_transpose"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *batch, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError(f"{d_model} % {n_heads} != 0")
    return X.reshape(*batch, n_heads, n, d_model // n_heads)


def merge_heads(X):
    X = np.asarray(X)
    *batch, n_heads, n, d_head = X.shape
    return np.swapaxes(X, -3, -2).reshape(*batch, n, n_heads * d_head)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)[..., None, :, :]
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(heads) @ np.asarray(W_O), weights
