"""Correct multi-head attention with the heads as an explicit einsum axis ('bnhd,bmhd->bhnm' style,
as in einops/JAX code), leading axes kept by '...'.
"""
import math

import numpy as np

EXPECTED = {"exercise": "multihead", "mistake": None}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *lead, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads != 0:
        raise ValueError("d_model must be divisible by n_heads")
    return np.moveaxis(X.reshape(*lead, n, n_heads, d_model // n_heads), -2, -3)


def merge_heads(X):
    X = np.asarray(X)
    *lead, h, n, d = X.shape
    return np.moveaxis(X, -3, -2).reshape(*lead, n, h * d)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    *lead, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads != 0:
        raise ValueError("d_model must be divisible by n_heads")
    d_head = d_model // n_heads
    q = (X @ np.asarray(W_Q)).reshape(*lead, n, n_heads, d_head)
    k = (X @ np.asarray(W_K)).reshape(*lead, n, n_heads, d_head)
    v = (X @ np.asarray(W_V)).reshape(*lead, n, n_heads, d_head)
    logits = np.einsum("...nhd,...mhd->...hnm", q, k) * (1.0 / math.sqrt(d_head))
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        if m.ndim >= 2:
            m = m[..., None, :, :]  # one head axis, shared by every head
        logits = np.where(m, logits, -np.inf)
    top = logits.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    p = np.exp(logits - top)
    z = p.sum(axis=-1, keepdims=True)
    p = np.divide(p, z, out=np.zeros_like(p), where=z > 0)
    ctx = np.einsum("...hnm,...mhd->...nhd", p, v).reshape(*lead, n, d_model)
    return ctx @ np.asarray(W_O), p
