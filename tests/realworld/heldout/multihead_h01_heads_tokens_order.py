"""Held-out: split_heads reshapes to (..., n, h, d_head) and stops there: heads and tokens stay in the other order
(the transpose(1, 2) of the PyTorch original was dropped)."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "split_heads_no_transpose"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return X.reshape(*X.shape[:-1], n_heads, d_model // n_heads)


def merge_heads(X):
    X = np.asarray(X)
    X = np.swapaxes(X, -3, -2)
    return X.reshape(*X.shape[:-2], -1)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    q, k, v = (np.swapaxes(split_heads(X @ W, n_heads), -3, -2) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.ndim >= 2:
            mask = mask[..., None, :, :]
    heads, w = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(heads) @ W_O, w
