"""Held-out #3: a per-head loop (slices of the projected Q, K, V, one head at a time, as in blog posts that do not
vectorise by head) that scales each head's scores by ``sqrt(d_model)``, the model width, not the head width."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "multihead", "mistake": "multihead_scale_d_model"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *lead, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return np.swapaxes(X.reshape(*lead, n, n_heads, d_model // n_heads), -3, -2)


def merge_heads(X):
    X = np.asarray(X)
    *lead, h, n, d_head = X.shape
    return np.swapaxes(X, -3, -2).reshape(*lead, n, h * d_head)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    d_head = d_model // n_heads
    Q, K, V = X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V)
    outputs, all_weights = [], []
    for h in range(n_heads):
        part = slice(h * d_head, (h + 1) * d_head)
        scores = Q[..., part] @ np.swapaxes(K[..., part], -1, -2) / np.sqrt(d_model)
        if mask is not None:
            scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
        weights = softmax(scores, axis=-1)
        outputs.append(weights @ V[..., part])
        all_weights.append(weights)
    concat = np.concatenate(outputs, axis=-1)
    return concat @ np.asarray(W_O), np.stack(all_weights, axis=-3)
