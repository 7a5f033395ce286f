"""Multi-head attention that gives the mask its head axis with `mask[None]` (right only for an
unbatched (n, n) mask).

Bug: for a batched (B, n, n) mask, mask[None] is (1, B, n, n): it lines up batches with heads
(or fails to broadcast).
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "multihead_mask_leading_axis"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *batch, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return np.swapaxes(X.reshape(*batch, n, n_heads, d_model // n_heads), -3, -2)


def merge_heads(X):
    X = np.asarray(X)
    *batch, h, n, d = X.shape
    return np.swapaxes(X, -3, -2).reshape(*batch, n, h * d)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)[None]
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(heads) @ np.asarray(W_O), weights
