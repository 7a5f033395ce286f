"""Held-out #3: multi-head attention with einsum subscripts naming every axis (``bnhd,bmhd->bhnm``) on the
projections viewed as (..., n, heads, d_head), the heads never moved to the front until the weights are returned.
Correct."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "multihead", "mistake": None}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *lead, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    return np.moveaxis(X.reshape(*lead, n, n_heads, d_model // n_heads), -2, -3)


def merge_heads(X):
    X = np.asarray(X)
    *lead, h, n, d_head = X.shape
    return np.moveaxis(X, -3, -2).reshape(*lead, n, h * d_head)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    *lead, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    d_head = d_model // n_heads
    q, k, v = ((X @ np.asarray(W)).reshape(*lead, n, n_heads, d_head) for W in (W_Q, W_K, W_V))
    scores = np.einsum("...nhd,...mhd->...hnm", q, k) * (1.0 / math.sqrt(d_head))
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.ndim >= 2:
            mask = mask[..., None, :, :]
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    heads = np.einsum("...hnm,...mhd->...nhd", weights, v)
    return heads.reshape(*lead, n, d_model) @ np.asarray(W_O), weights
