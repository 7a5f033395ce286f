"""Tiled attention whose `causal` flag is accepted and never used (the mask was "for later").

Bug: causal=True attends to future keys.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_no_causal_mask"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    if not block_size >= 1:
        raise ValueError(f"block_size={block_size}: need at least one key per block")
    dt = np.result_type(np.asarray(Q), np.asarray(K), np.asarray(V), 1.0)
    Q, K, V = (np.asarray(a, dtype=dt) for a in (Q, K, V))
    m_i = np.full(Q.shape[0], -np.inf, dtype=dt)
    l_i = np.zeros(Q.shape[0], dtype=dt)
    acc = np.zeros((Q.shape[0], V.shape[1]), dtype=dt)
    for start in range(0, K.shape[0], block_size):
        k_blk, v_blk = K[start:start + block_size], V[start:start + block_size]
        qk = Q @ k_blk.T / math.sqrt(Q.shape[1])
        m_ij = np.maximum(m_i, qk.max(axis=1))
        p = np.exp(qk - m_ij[:, None])
        alpha = np.exp(m_i - m_ij)
        l_i = l_i * alpha + p.sum(axis=1)
        acc = acc * alpha[:, None] + p @ v_blk
        m_i = m_ij
    return acc / l_i[:, None]
