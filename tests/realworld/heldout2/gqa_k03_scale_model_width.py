"""Held-out #2: a grouped-query layer with its own per-group loop and the score scale ``1 / sqrt(d_model)`` (the
model width, from a config field) instead of the head width."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "gqa", "mistake": "gqa_scale_by_d_model"}


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
    hd = d_model // n_heads
    if np.shape(W_K)[-1] != n_kv_heads * hd or np.shape(W_V)[-1] != n_kv_heads * hd:
        raise ValueError("W_K and W_V need n_kv_heads * d_head columns")
    Q, K, V = X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V)
    per_group = n_heads // n_kv_heads
    m = None if mask is None else np.asarray(mask, dtype=bool)
    outs, ws = [], []
    for h in range(n_heads):
        g = h // per_group
        q = Q[..., h * hd:(h + 1) * hd]
        k = K[..., g * hd:(g + 1) * hd]
        v = V[..., g * hd:(g + 1) * hd]
        s = q @ np.swapaxes(k, -1, -2) * (1.0 / float(np.sqrt(d_model)))
        if m is not None:
            s = np.where(m, s, -np.inf)
        w = softmax(s, axis=-1)
        outs.append(w @ v)
        ws.append(w)
    return np.concatenate(outs, axis=-1) @ np.asarray(W_O), np.stack(ws, axis=-3)


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    for size in (n_layers, n_kv_heads, d_head, seq_len, batch, bytes_per_value):
        if size < 0:
            raise ValueError("sizes must not be negative")
    return 2 * n_layers * batch * n_kv_heads * seq_len * d_head * bytes_per_value
