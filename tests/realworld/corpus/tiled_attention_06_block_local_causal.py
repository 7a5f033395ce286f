"""Tiled attention whose causal mask compares the query index with the key's index inside the block
(np.arange(block) instead of np.arange(start, stop)).

Bug: the causal mask uses block-local key positions.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_causal_block_index"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q = Q.shape[0]
    row = np.arange(n_q)[:, None]
    mx = np.full(n_q, -np.inf, dtype=dt)
    den = np.zeros(n_q, dtype=dt)
    num = np.zeros((n_q, V.shape[1]), dtype=dt)
    for s0 in range(0, K.shape[0], block_size):
        kb = K[s0:s0 + block_size]
        sc = Q @ kb.T * (1.0 / math.sqrt(Q.shape[1]))
        if causal:
            col = np.arange(kb.shape[0])[None, :]
            sc = np.where(col <= row, sc, -np.inf)
        new = np.maximum(mx, sc.max(axis=1))
        sh = np.where(np.isfinite(new), new, 0.0)
        w = np.exp(sc - sh[:, None])
        r = np.exp(mx - sh)
        den = den * r + w.sum(axis=1)
        num = num * r[:, None] + w @ V[s0:s0 + block_size]
        mx = new
    return np.divide(num, den[:, None], out=np.zeros_like(num), where=den[:, None] > 0)
