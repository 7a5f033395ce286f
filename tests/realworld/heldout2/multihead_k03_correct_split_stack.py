"""Held-out #2 (correct): heads made with ``np.split`` of the last axis into n_heads column blocks stacked on a
new head axis, merged with ``np.concatenate`` of the heads along the features."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": None}


def split_heads(X, n_heads):
    X = np.asarray(X)
    if n_heads <= 0 or X.shape[-1] % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return np.stack(np.split(X, n_heads, axis=-1), axis=-3)


def merge_heads(X):
    X = np.asarray(X)
    return np.concatenate([X[..., h, :, :] for h in range(X.shape[-3])], axis=-1)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.ndim >= 2:
            mask = np.expand_dims(mask, -3)
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(heads) @ np.asarray(W_O), weights
