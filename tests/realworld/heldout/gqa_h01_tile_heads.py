"""Held-out: key/value heads repeated with ``np.tile`` (head g serves queries g, g + n_kv, ...) instead of blocks
of consecutive query heads. Style: ``head_to_group = arange(n_heads) % n_kv`` variants of the index map."""
import numpy as np

from .attention import scaled_dot_product_attention
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "gqa", "mistake": "gqa_repeat_tiled"}


def repeat_kv(x, n_rep):
    x = np.asarray(x)
    if n_rep < 1 or x.ndim < 3:
        raise ValueError("n_rep >= 1 and x of at least 3 axes")
    reps = [1] * x.ndim
    reps[-3] = n_rep
    return np.tile(x, reps)


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if d_model % n_heads or n_heads % n_kv_heads:
        raise ValueError("indivisible heads")
    d_head = d_model // n_heads
    if np.shape(W_K)[-1] != n_kv_heads * d_head or np.shape(W_V)[-1] != n_kv_heads * d_head:
        raise ValueError("W_K and W_V need n_kv_heads * d_head columns")
    q = split_heads(X @ W_Q, n_heads)
    k = repeat_kv(split_heads(X @ W_K, n_kv_heads), n_heads // n_kv_heads)
    v = repeat_kv(split_heads(X @ W_V, n_kv_heads), n_heads // n_kv_heads)
    if mask is not None:
        mask = np.expand_dims(np.atleast_2d(np.asarray(mask, dtype=bool)), -3)
    out, w = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_O, w


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    if min(n_layers, n_kv_heads, d_head, seq_len, batch, bytes_per_value) < 0:
        raise ValueError("sizes must not be negative")
    return 2 * n_layers * n_kv_heads * d_head * seq_len * batch * bytes_per_value
