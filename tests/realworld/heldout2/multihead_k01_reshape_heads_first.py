"""Held-out #2: a from-scratch notebook that reshapes the projections straight to (batch, heads, seq, d_head)
and then still transposes (0, 2, 1, 3): the split mixes tokens and heads, and the transpose puts tokens first."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "split_heads_no_transpose"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *batch, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return X.reshape(*batch, n_heads, n, d_model // n_heads)


def merge_heads(X):
    X = np.asarray(X)
    *batch, h, n, d = X.shape
    return np.swapaxes(X, -3, -2).reshape(*batch, n, h * d)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.ndim >= 2:
            mask = mask[..., None, :, :]
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(heads) @ np.asarray(W_O), weights
