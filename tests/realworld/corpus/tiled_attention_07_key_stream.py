"""Correct streaming attention in the one-key-at-a-time form of the online softmax (FlashAttention-2
pseudocode run with block size 1 inside each block, vectorised over the queries), float64 or float32
as given.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": None}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be at least 1")
    ft = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(ft), K.astype(ft), V.astype(ft)
    n_q, n_k = Q.shape[0], K.shape[0]
    inv = 1.0 / math.sqrt(Q.shape[1])
    m = np.full(n_q, -np.inf, dtype=ft)
    z = np.zeros(n_q, dtype=ft)
    o = np.zeros((n_q, V.shape[1]), dtype=ft)
    qi = np.arange(n_q)
    for b in range(0, n_k, block_size):
        for j in range(b, min(b + block_size, n_k)):
            s = (Q @ K[j]) * inv                       # (n_q,) one key against every query
            if causal:
                s = np.where(j <= qi, s, -np.inf)
            m_new = np.maximum(m, s)
            base = np.where(np.isfinite(m_new), m_new, 0)
            c = np.exp(m - base)
            e = np.exp(s - base)
            z = z * c + e
            o = o * c[:, None] + e[:, None] * V[j]
            m = m_new
    return np.divide(o, z[:, None], out=np.zeros_like(o), where=z[:, None] > 0)
