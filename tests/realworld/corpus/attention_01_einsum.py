"""Correct attention in einsum style ('...qd,...kd->...qk'), softmax inlined, torch-like masked_fill.

Imitates: einsum-heavy research code and cs336-style assignments ported to numpy.
"""
import math

import numpy as np

EXPECTED = {"exercise": "attention", "mistake": None}


def _stable_softmax(s):
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isneginf(m), 0, m)
    p = np.exp(s - m)
    z = p.sum(axis=-1, keepdims=True)
    return np.divide(p, z, out=np.zeros_like(p), where=z != 0)


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    scores = np.einsum("...qd,...kd->...qk", Q, K) / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    attn = _stable_softmax(scores)
    return np.einsum("...qk,...kv->...qv", attn, V), attn


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    q = np.einsum("...nd,dk->...nk", X, np.asarray(W_Q))
    k = np.einsum("...nd,dk->...nk", X, np.asarray(W_K))
    v = np.einsum("...nd,dv->...nv", X, np.asarray(W_V))
    return scaled_dot_product_attention(q, k, v, mask)
