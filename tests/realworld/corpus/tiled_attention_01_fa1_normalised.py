"""Correct tiled attention in the FlashAttention-1 form: the output kept normalised after every block
and renormalised with the corrected running sum (out = (out*corr*lse + P V) / (corr*lse + sum P)).
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": None}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size <= 0:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    scale = 1.0 / math.sqrt(Q.shape[1])
    out = np.zeros((n_q, V.shape[1]), dtype=dt)
    lse = np.zeros((n_q, 1), dtype=dt)
    m = np.full((n_q, 1), -np.inf, dtype=dt)
    rows = np.arange(n_q)[:, None]
    for j in range(0, n_k, block_size):
        Kj, Vj = K[j:j + block_size], V[j:j + block_size]
        S = (Q @ Kj.T) * scale
        if causal:
            S = np.where(np.arange(j, j + Kj.shape[0])[None, :] <= rows, S, -np.inf)
        m_new = np.maximum(m, S.max(axis=1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0, m_new)
        P = np.exp(S - safe)
        corr = np.exp(m - safe)
        lse_new = corr * lse + P.sum(axis=1, keepdims=True)
        numer = out * corr * lse + P @ Vj
        out = np.divide(numer, lse_new, out=np.zeros_like(numer), where=lse_new > 0)
        lse, m = lse_new, m_new
    return out
