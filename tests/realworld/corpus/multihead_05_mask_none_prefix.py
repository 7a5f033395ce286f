"""Multi-head attention that gives the mask its head axis with `mask[None]` (right only for an
unbatched (n, n) mask).

Bug: for a batched (B, n, n) mask, mask[None] is (1, B, n, n): it lines up batches with heads
(or fails to broadcast).
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "multihead_mask_leading_axis"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    if n_heads < 1 or X.shape[-1] % n_heads != 0:
        raise ValueError(f"cannot split {X.shape[-1]} features into {n_heads} heads")
    return np.stack(np.split(X, n_heads, axis=-1), axis=-3)


def merge_heads(X):
    X = np.asarray(X)
    pieces = np.split(X, X.shape[-3], axis=-3)            # h arrays of shape (..., 1, n, d_head)
    return np.concatenate(pieces, axis=-1).squeeze(-3)

def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    x = np.asarray(X)
    q = split_heads(np.matmul(x, W_Q), n_heads)
    k = split_heads(np.matmul(x, W_K), n_heads)
    v = split_heads(np.matmul(x, W_V), n_heads)
    head_mask = None if mask is None else np.asarray(mask, dtype=bool)[None]   # (1, n, n) for the heads
    context, attn = scaled_dot_product_attention(q, k, v, head_mask)
    return np.matmul(merge_heads(context), W_O), attn
