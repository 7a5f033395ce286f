"""Tiled attention that tracks the running max but forgets to rescale the running sum and output when
it grows (the online-softmax "correction factor" left out).

Bug: earlier blocks stay measured against an old max.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_no_rescale"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be >= 1")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q = Q.shape[0]
    m = np.full(n_q, -np.inf, dtype=dt)
    total = np.zeros(n_q, dtype=dt)
    o = np.zeros((n_q, V.shape[1]), dtype=dt)
    scale = 1 / math.sqrt(Q.shape[1])
    for start in range(0, K.shape[0], block_size):
        s = Q @ K[start:start + block_size].T * scale
        if causal:
            keys = np.arange(start, start + s.shape[1])
            s = np.where(keys[None, :] <= np.arange(n_q)[:, None], s, -np.inf)
        m = np.maximum(m, s.max(axis=1))
        p = np.exp(s - np.where(np.isfinite(m), m, 0)[:, None])
        total = total + p.sum(axis=1)
        o = o + p @ V[start:start + block_size]
    return np.divide(o, total[:, None], out=np.zeros_like(o), where=total[:, None] > 0)
