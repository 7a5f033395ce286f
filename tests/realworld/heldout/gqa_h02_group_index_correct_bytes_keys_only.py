"""Held-out: heads mapped to groups by ``arange(n_heads) // group`` (right), but the cache size counts the keys
only (no factor 2 for values). Style: memory calculators that count "the KV cache" as one tensor."""
import numpy as np

from .attention import scaled_dot_product_attention
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "gqa", "mistake": "gqa_cache_keys_only"}


def repeat_kv(x, n_rep):
    x = np.asarray(x)
    if n_rep < 1:
        raise ValueError("n_rep must be >= 1")
    if x.ndim < 3:
        raise ValueError("x needs (..., n_kv_heads, n, d)")
    index = np.arange(x.shape[-3] * n_rep) // n_rep
    return np.take(x, index, axis=-3)


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if d_model % n_heads != 0 or n_kv_heads < 1 or n_heads % n_kv_heads != 0:
        raise ValueError("bad head counts")
    d_head = d_model // n_heads
    for W in (W_K, W_V):
        if np.shape(W)[-1] != n_kv_heads * d_head:
            raise ValueError("W_K/W_V columns")
    group = n_heads // n_kv_heads
    Q = split_heads(X @ np.asarray(W_Q), n_heads)
    K = repeat_kv(split_heads(X @ np.asarray(W_K), n_kv_heads), group)
    V = repeat_kv(split_heads(X @ np.asarray(W_V), n_kv_heads), group)
    m = None if mask is None else np.atleast_2d(np.asarray(mask, dtype=bool))[..., None, :, :]
    heads, weights = scaled_dot_product_attention(Q, K, V, m)
    return merge_heads(heads) @ np.asarray(W_O), weights


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    for size in (n_layers, n_kv_heads, d_head, seq_len, batch, bytes_per_value):
        if size < 0:
            raise ValueError("negative size")
    return int(n_layers * n_kv_heads * d_head * seq_len * batch * bytes_per_value)
