"""Held-out #3: cross-attention as three einsums (``...qd,...kd->...qk`` and back), the padding mask broadcast
over the queries; leading dimensions and mask shape validated. Correct."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "cross_attention", "mistake": None}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError(f"X has leading dimensions {X.shape[:-2]} but Z has {Z.shape[:-2]}")
    q = np.einsum("...nd,de->...ne", X, np.asarray(W_Q))
    k = np.einsum("...md,de->...me", Z, np.asarray(W_K))
    v = np.einsum("...md,de->...me", Z, np.asarray(W_V))
    scores = np.einsum("...ne,...me->...nm", q, k) * (1.0 / math.sqrt(q.shape[-1]))
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if key_padding_mask is not None:
        keep = np.asarray(key_padding_mask, dtype=bool)
        if keep.shape != Z.shape[:-1]:
            raise ValueError(f"key_padding_mask has shape {keep.shape}; expected {Z.shape[:-1]}")
        scores = np.where(keep[..., None, :], scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return np.einsum("...nm,...me->...ne", weights, v), weights
