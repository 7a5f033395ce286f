"""Held-out #2: a KV-cache size calculator that reports "per layer" (2 * batch * kv heads * tokens * d_head *
bytes) and never multiplies by the number of layers."""
import numpy as np

from .attention import scaled_dot_product_attention
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "gqa", "mistake": "gqa_cache_one_layer"}


def repeat_kv(x, n_rep):
    x = np.asarray(x)
    if n_rep < 1 or x.ndim < 3:
        raise ValueError("n_rep must be >= 1 and x must have at least 3 dimensions")
    return np.repeat(x, n_rep, axis=-3)


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads or n_kv_heads <= 0 or n_heads % n_kv_heads:
        raise ValueError("n_heads must divide d_model and n_kv_heads must divide n_heads")
    d_head = d_model // n_heads
    if np.shape(W_K)[-1] != n_kv_heads * d_head or np.shape(W_V)[-1] != n_kv_heads * d_head:
        raise ValueError("W_K and W_V need n_kv_heads * d_head columns")
    group = np.arange(n_heads) // (n_heads // n_kv_heads)
    q = split_heads(X @ np.asarray(W_Q), n_heads)
    k = np.take(split_heads(X @ np.asarray(W_K), n_kv_heads), group, axis=-3)
    v = np.take(split_heads(X @ np.asarray(W_V), n_kv_heads), group, axis=-3)
    if mask is not None:
        mask = np.expand_dims(np.atleast_2d(np.asarray(mask, dtype=bool)), -3)
    out, w = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ np.asarray(W_O), w


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    for size in (n_layers, n_kv_heads, d_head, seq_len, batch, bytes_per_value):
        if size < 0:
            raise ValueError("sizes must not be negative")
    return int(2 * batch * n_kv_heads * seq_len * d_head * bytes_per_value)
