"""Held-out #3: heads merged with a bare ``reshape(batch, n, d_model)`` of the (batch, heads, n, d_head) array, as
in from-scratch notebooks that forget the axes are still in head-major order: tokens and heads are interleaved."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "merge_heads_no_transpose"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *lead, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return np.swapaxes(X.reshape(*lead, n, n_heads, d_model // n_heads), -3, -2)


def merge_heads(X):
    X = np.asarray(X)
    *lead, h, n, d_head = X.shape
    return X.reshape(*lead, n, h * d_head)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.ndim >= 2:
            mask = mask[..., None, :, :]
    out, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(out) @ np.asarray(W_O), weights
