"""Held-out #2: query-block-major tiling (FlashAttention-2 order) whose causal test hides ``key >= query``: a
query may not see itself, and the first query sees nothing."""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_strict_causal"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    scale = 1.0 / math.sqrt(Q.shape[1])
    out = np.zeros((n_q, V.shape[1]), dt)
    for q0 in range(0, n_q, block_size):
        Qi = Q[q0:q0 + block_size]
        qi = np.arange(q0, q0 + len(Qi))[:, None]
        m = np.full(len(Qi), -np.inf, dt)
        row_sum = np.zeros(len(Qi), dt)
        o = np.zeros((len(Qi), V.shape[1]), dt)
        for k0 in range(0, n_k, block_size):
            S = (Qi @ K[k0:k0 + block_size].T) * scale
            if causal:
                kj = np.arange(k0, k0 + S.shape[1])[None, :]
                S = np.where(kj >= qi, -np.inf, S)
            m_new = np.maximum(m, S.max(axis=1))
            safe = np.where(np.isfinite(m_new), m_new, 0)
            P = np.exp(S - safe[:, None])
            a = np.exp(m - safe)
            row_sum = a * row_sum + P.sum(axis=1)
            o = a[:, None] * o + P @ V[k0:k0 + block_size]
            m = m_new
        out[q0:q0 + len(Qi)] = np.divide(o, row_sum[:, None], out=np.zeros_like(o), where=row_sum[:, None] > 0)
    return out
