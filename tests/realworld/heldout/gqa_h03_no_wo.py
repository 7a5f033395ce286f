"""Held-out: grouped-query attention returning the concatenated heads without the output projection W_O (the
projection lived in a separate module of the original code)."""
import numpy as np

from .attention import scaled_dot_product_attention
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "gqa", "mistake": "gqa_no_output_projection"}


def repeat_kv(x, n_rep):
    x = np.asarray(x)
    if n_rep < 1 or x.ndim < 3:
        raise ValueError("bad repeat_kv arguments")
    *lead, h, n, d = x.shape
    return np.broadcast_to(x[..., :, None, :, :], (*lead, h, n_rep, n, d)).reshape(*lead, h * n_rep, n, d)


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    X = np.asarray(X)
    if X.shape[-1] % n_heads or n_heads % n_kv_heads:
        raise ValueError("indivisible")
    d_head = X.shape[-1] // n_heads
    if np.shape(W_K)[-1] != n_kv_heads * d_head or np.shape(W_V)[-1] != n_kv_heads * d_head:
        raise ValueError("W_K, W_V columns")
    rep = n_heads // n_kv_heads
    q = split_heads(X @ W_Q, n_heads)
    k, v = (repeat_kv(split_heads(X @ W, n_kv_heads), rep) for W in (W_K, W_V))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        mask = mask[None, :] if mask.ndim == 1 else mask
        mask = mask[..., None, :, :]
    out, w = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out), w


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    if any(s < 0 for s in (n_layers, n_kv_heads, d_head, seq_len, batch, bytes_per_value)):
        raise ValueError("negative")
    return 2 * batch * n_layers * n_kv_heads * seq_len * d_head * bytes_per_value
