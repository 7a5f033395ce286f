"""Alternative multi-head: a Python loop over the heads, column slices of the packed matrices."""
import numpy as np

from .attention import scaled_dot_product_attention


def split_heads(X, n_heads):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads < 1 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    d_head = d_model // n_heads
    return np.stack([X[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)


def merge_heads(X):
    X = np.asarray(X)
    return np.concatenate([X[..., h, :, :] for h in range(X.shape[-3])], axis=-1)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads < 1 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    d_head = d_model // n_heads
    outputs, weights = [], []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out, w = scaled_dot_product_attention(X @ np.asarray(W_Q)[:, cols], X @ np.asarray(W_K)[:, cols],
                                              X @ np.asarray(W_V)[:, cols], mask)
        outputs.append(out)
        weights.append(w)
    return np.concatenate(outputs, axis=-1) @ np.asarray(W_O), np.stack(weights, axis=-3)
