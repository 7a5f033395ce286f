"""Held-out: heads in a Python loop, each slice attended with its own unscaled softmax and no output projection.
Style: tutorial code computing each head by hand (two mistakes at once)."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "multihead", "mistake": "multihead_no_output_projection+multihead_no_scale"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    if X.shape[-1] % n_heads:
        raise ValueError("indivisible")
    d = X.shape[-1] // n_heads
    return np.stack([X[..., h * d:(h + 1) * d] for h in range(n_heads)], axis=-3)


def merge_heads(X):
    X = np.asarray(X)
    return np.concatenate([X[..., h, :, :] for h in range(X.shape[-3])], axis=-1)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    if X.dtype.kind != "f":
        X = X.astype(float)
    Q, K, V = (split_heads(X @ W, n_heads) for W in (W_Q, W_K, W_V))
    scores = Q @ np.swapaxes(K, -1, -2)
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        scores = np.where(np.expand_dims(m, -3) if m.ndim >= 2 else m, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return merge_heads(weights @ V), weights
