"""Multi-head attention in the TensorTonic style (`(q @ k.swapaxes(-1, -2)) / np.sqrt(d_k)` with
d_k = d_model // n_heads), any number of leading axes.

Bug: np.sqrt(d_k) is a NumPy float64 scalar, so float32 inputs come back as float64 under NumPy 2.
"""
import numpy as np

EXPECTED = {"exercise": "multihead", "mistake": "multihead_sqrt_promotes_float32"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *lead, seq_len, d_model = X.shape
    if n_heads < 1 or d_model % n_heads:
        raise ValueError(f"d_model={d_model} not divisible by num_heads={n_heads}")
    x = X.reshape(*lead, seq_len, n_heads, d_model // n_heads)
    return np.swapaxes(x, -2, -3)


def merge_heads(X):
    X = np.asarray(X)
    *lead, n_heads, seq_len, d_k = X.shape
    return np.swapaxes(X, -2, -3).reshape(*lead, seq_len, n_heads * d_k)


def _softmax(x):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True, initial=-np.inf, where=np.isfinite(x)))
    total = np.sum(e_x, axis=-1, keepdims=True)
    return np.divide(e_x, total, out=np.zeros_like(e_x), where=total > 0)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    d_k = X.shape[-1] // n_heads
    q_heads = split_heads(X @ W_Q, n_heads)
    k_heads = split_heads(X @ W_K, n_heads)
    v_heads = split_heads(X @ W_V, n_heads)
    scores = (q_heads @ np.swapaxes(k_heads, -1, -2)) / np.sqrt(d_k)
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        scores = np.where(m[..., None, :, :] if m.ndim >= 2 else m, scores, -np.inf)
    weights = _softmax(scores)
    return merge_heads(weights @ v_heads) @ W_O, weights
