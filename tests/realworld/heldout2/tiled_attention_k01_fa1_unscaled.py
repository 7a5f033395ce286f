"""Held-out #2: a FlashAttention-1 walk-through (outer loop over key blocks, inner loop over query blocks, the
running max ``m``, sum ``row_sum`` and output ``O`` kept per query) with ``S_ij = Q_i @ K_j.T`` never scaled."""
import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_no_scale"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    acc = np.zeros((n_q, V.shape[1]), dt)
    row_sum = np.zeros((n_q, 1), dt)
    m = np.full((n_q, 1), -np.inf, dt)
    Br = block_size
    for kb in range(0, n_k, block_size):
        Kj, Vj = K[kb:kb + block_size], V[kb:kb + block_size]
        for qb in range(0, n_q, Br):
            Qi = Q[qb:qb + Br]
            S = Qi @ Kj.T
            if causal:
                qi = np.arange(qb, qb + len(Qi))[:, None]
                kj = np.arange(kb, kb + len(Kj))[None, :]
                S = np.where(kj > qi, -np.inf, S)
            m_old = m[qb:qb + Br]
            m_new = np.maximum(m_old, S.max(axis=1, keepdims=True))
            shift = np.where(np.isfinite(m_new), m_new, 0)
            P = np.exp(S - shift)
            alpha = np.exp(m_old - shift)
            row_sum[qb:qb + Br] = alpha * row_sum[qb:qb + Br] + P.sum(axis=1, keepdims=True)
            acc[qb:qb + Br] = alpha * acc[qb:qb + Br] + P @ Vj
            m[qb:qb + Br] = m_new
    return np.divide(acc, row_sum, out=np.zeros_like(acc), where=row_sum > 0)
