"""Correct multi-head attention as a Python loop over heads: each head slices its columns of the packed
projections, calls the attention function, and the heads are concatenated (the "concat of heads" picture
from the paper, as written in many first implementations).
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": None}


def split_heads(X, n_heads):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads < 1 or d_model % n_heads:
        raise ValueError(f"cannot split d_model={d_model} into {n_heads} heads")
    d_head = d_model // n_heads
    heads = [X[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)]
    return np.stack(heads, axis=-3)


def merge_heads(X):
    X = np.asarray(X)
    n_heads = X.shape[-3]
    return np.concatenate([X[..., h, :, :] for h in range(n_heads)], axis=-1)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    W_Q, W_K, W_V, W_O = (np.asarray(w) for w in (W_Q, W_K, W_V, W_O))
    d_model = W_Q.shape[1]
    if n_heads < 1 or d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    d_head = d_model // n_heads
    outputs, weights = [], []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out, w = scaled_dot_product_attention(X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols], mask)
        outputs.append(out)
        weights.append(w)
    concat = np.concatenate(outputs, axis=-1)
    return concat @ W_O, np.stack(weights, axis=-3)
