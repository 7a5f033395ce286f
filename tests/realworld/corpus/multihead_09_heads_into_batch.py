"""Correct multi-head attention in the d2l `transpose_qkv` style: the heads are folded into the batch
axis, (B, n, h, d) -> (B*h, n, d), one batched attention call, then unfolded.
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": None}


def split_heads(X, n_heads):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError(f"n_heads={n_heads} does not divide d_model={d_model}")
    lead, n = X.shape[:-2], X.shape[-2]
    out = X.reshape(-1, n, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)
    return out.reshape(*lead, n_heads, n, d_model // n_heads)


def merge_heads(X):
    X = np.asarray(X)
    lead, (h, n, d) = X.shape[:-3], X.shape[-3:]
    out = X.reshape(-1, h, n, d).transpose(0, 2, 1, 3)
    return out.reshape(*lead, n, h * d)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    lead, n = X.shape[:-2], X.shape[-2]
    q, k, v = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    d_head = q.shape[-1]
    folded = [a.reshape(-1, n, d_head) for a in (q, k, v)]             # (B*h, n, d_head)
    if mask is not None:
        m = np.broadcast_to(np.asarray(mask, dtype=bool), (*lead, n, n))
        m = np.broadcast_to(m[..., None, :, :], (*lead, n_heads, n, n)).reshape(-1, n, n)
    else:
        m = None
    out, w = scaled_dot_product_attention(*folded, m)
    heads = out.reshape(*lead, n_heads, n, d_head)
    return merge_heads(heads) @ np.asarray(W_O), w.reshape(*lead, n_heads, n, n)
