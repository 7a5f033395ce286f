"""Held-out: returns the weights averaged over the heads (``need_weights=True, average_attn_weights=True`` is
torch's default), so the weights lose their head axis."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "shape_axis_missing"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *lead, n, d = X.shape
    if d % n_heads:
        raise ValueError(f"{d} not divisible by {n_heads}")
    return np.moveaxis(X.reshape(*lead, n, n_heads, d // n_heads), -2, -3)


def merge_heads(X):
    X = np.asarray(X)
    *lead, h, n, dh = X.shape
    return np.moveaxis(X, -3, -2).reshape(*lead, n, h * dh)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        mask = np.expand_dims(mask, -3) if mask.ndim >= 2 else mask
    out, w = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(out) @ np.asarray(W_O), w.mean(axis=-3)
