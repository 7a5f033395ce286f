"""Correct attention computed one query at a time with np.dot (the "explain it slowly" tutorial style),
leading batch axes handled by np.ndindex.
"""
import math

import numpy as np

EXPECTED = {"exercise": "attention", "mistake": None}


def _one_query(q, K, V, allowed):
    scores = np.array([np.dot(q, k) for k in K]) / math.sqrt(len(q))
    scores = scores.astype(np.result_type(q, K, 1.0))
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    if np.all(np.isneginf(scores)):
        return np.zeros(V.shape[-1], dtype=scores.dtype), np.zeros_like(scores)
    w = np.exp(scores - scores.max())
    w = w / w.sum()
    return w @ V, w


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    n_q, n_k = Q.shape[-2], K.shape[-2]
    if mask is not None:
        batch = np.broadcast_shapes(batch, np.shape(mask)[:-2])
        mask = np.broadcast_to(np.asarray(mask, dtype=bool), (*batch, n_q, n_k))
        batch = mask.shape[:-2]
    dtype = np.result_type(Q, K, V, 1.0)
    out = np.zeros((*batch, n_q, V.shape[-1]), dtype=dtype)
    weights = np.zeros((*batch, n_q, n_k), dtype=dtype)
    Qb = np.broadcast_to(Q, (*batch, n_q, Q.shape[-1]))
    Kb = np.broadcast_to(K, (*batch, n_k, K.shape[-1]))
    Vb = np.broadcast_to(V, (*batch, n_k, V.shape[-1]))
    for idx in np.ndindex(*batch):
        for i in range(n_q):
            allowed = None if mask is None else mask[idx][i]
            out[idx][i], weights[idx][i] = _one_query(Qb[idx][i], Kb[idx], Vb[idx], allowed)
    return out, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
