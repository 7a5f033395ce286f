"""Held-out #3: a course assignment's FlashAttention forward whose number of query tiles is ``n_q // tile``
(written for lengths that are multiples of the tile): the output rows of a last partial tile stay as allocated."""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "axis_tail_ignored"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    n_q, n_k = Q.shape[0], K.shape[0]
    scale = 1.0 / math.sqrt(Q.shape[1])
    out = np.zeros((n_q, V.shape[1]), dtype=dt)
    for t in range(n_q // block_size):
        rows = slice(t * block_size, (t + 1) * block_size)
        q = Q[rows].astype(dt)
        m = np.full(q.shape[0], -np.inf, dt)
        denom = np.zeros(q.shape[0], dt)
        acc = np.zeros((q.shape[0], V.shape[1]), dt)
        for start in range(0, n_k, block_size):
            s = (q @ K[start:start + block_size].T.astype(dt)) * dt.type(scale)
            if causal:
                qi = np.arange(rows.start, rows.stop)[:, None]
                s = np.where(np.arange(start, start + s.shape[1])[None, :] <= qi, s, -np.inf)
            m_new = np.maximum(m, s.max(axis=1))
            safe = np.where(np.isfinite(m_new), m_new, 0)
            p = np.exp(s - safe[:, None])
            alpha = np.exp(np.where(np.isfinite(m), m - safe, -np.inf))
            denom = denom * alpha + p.sum(axis=1)
            acc = acc * alpha[:, None] + p @ V[start:start + block_size].astype(dt)
            m = m_new
        out[rows] = np.divide(acc, denom[:, None], out=np.zeros_like(acc), where=denom[:, None] > 0)
    return out
