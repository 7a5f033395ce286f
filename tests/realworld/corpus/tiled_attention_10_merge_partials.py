"""Correct tiled attention that computes each block's own (max, sum, weighted values) and merges it into
the running triple, as the two-block `tiled_softmax(x, y)` derivations do.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": None}


def _block_stats(scores, V_blk):
    m = scores.max(axis=1)
    m_safe = np.where(np.isfinite(m), m, 0)
    p = np.exp(scores - m_safe[:, None])
    return m, p.sum(axis=1), p @ V_blk


def _merge(a, b):
    (m1, s1, o1), (m2, s2, o2) = a, b
    m = np.maximum(m1, m2)
    m_safe = np.where(np.isfinite(m), m, 0)
    f1 = np.exp(np.where(np.isfinite(m1), m1, -np.inf) - m_safe)
    f2 = np.exp(np.where(np.isfinite(m2), m2, -np.inf) - m_safe)
    return m, f1 * s1 + f2 * s2, f1[:, None] * o1 + f2[:, None] * o2


def tiled_attention(Q, K, V, block_size=64, causal=False):
    if block_size < 1:
        raise ValueError("block_size must be a positive integer")
    dtype = np.result_type(np.asarray(Q), np.asarray(K), np.asarray(V), 1.0)
    Q, K, V = (np.asarray(a).astype(dtype, copy=False) for a in (Q, K, V))
    n_q = Q.shape[0]
    state = (np.full(n_q, -np.inf, dtype), np.zeros(n_q, dtype), np.zeros((n_q, V.shape[1]), dtype))
    factor = 1.0 / math.sqrt(Q.shape[1])
    for a in range(0, K.shape[0], block_size):
        b = min(a + block_size, K.shape[0])
        scores = (Q @ K[a:b].T) * factor
        if causal:
            scores[np.arange(a, b)[None, :] > np.arange(n_q)[:, None]] = -np.inf
        state = _merge(state, _block_stats(scores, V[a:b]))
    _, total, out = state
    return np.divide(out, total[:, None], out=np.zeros_like(out), where=total[:, None] > 0)
