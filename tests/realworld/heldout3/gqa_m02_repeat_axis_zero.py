"""Held-out #3: ``repeat_kv`` as ``np.repeat(x, n_rep, axis=0)``, written for one sequence's (heads, n, d) keys:
with a batch axis in front it repeats batch entries instead of heads."""
import numpy as np

from .attention import scaled_dot_product_attention
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "gqa", "mistake": "shape_rank_dependent"}


def repeat_kv(x, n_rep):
    x = np.asarray(x)
    if n_rep < 1 or x.ndim < 3:
        raise ValueError("n_rep must be >= 1 and x must have at least 3 dimensions")
    return np.repeat(x, n_rep, axis=0)


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    X, W_K, W_V = np.asarray(X), np.asarray(W_K), np.asarray(W_V)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads or n_kv_heads <= 0 or n_heads % n_kv_heads:
        raise ValueError("n_heads must divide d_model and n_kv_heads must divide n_heads")
    d_head = d_model // n_heads
    if W_K.shape[-1] != n_kv_heads * d_head or W_V.shape[-1] != n_kv_heads * d_head:
        raise ValueError("W_K and W_V need n_kv_heads * d_head columns")
    Q = split_heads(X @ np.asarray(W_Q), n_heads)
    K = repeat_kv(split_heads(X @ W_K, n_kv_heads), n_heads // n_kv_heads)
    V = repeat_kv(split_heads(X @ W_V, n_kv_heads), n_heads // n_kv_heads)
    if mask is not None:
        mask = np.expand_dims(np.atleast_2d(np.asarray(mask, dtype=bool)), -3)
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(heads) @ np.asarray(W_O), weights


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    for value in (n_layers, n_kv_heads, d_head, seq_len, batch, bytes_per_value):
        if value < 0:
            raise ValueError("sizes must not be negative")
    return int(2 * n_layers * batch * n_kv_heads * seq_len * d_head * bytes_per_value)
