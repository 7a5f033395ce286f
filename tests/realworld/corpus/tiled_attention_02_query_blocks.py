"""Correct tiled attention in the FlashAttention-2 loop order: outer loop over query blocks, inner loop
over key blocks, running (max, sum, output) per query block, one division at the end; causal blocks
entirely in the future are skipped.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": None}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size < 1")
    dtype = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dtype), K.astype(dtype), V.astype(dtype)
    n_q, d = Q.shape
    n_k, d_v = V.shape
    out = np.zeros((n_q, d_v), dtype=dtype)
    scale = 1.0 / math.sqrt(d)
    for qs in range(0, n_q, block_size):
        Qi = Q[qs:qs + block_size]
        bq = Qi.shape[0]
        acc = np.zeros((bq, d_v), dtype=dtype)
        row_max = np.full(bq, -np.inf, dtype=dtype)
        row_sum = np.zeros(bq, dtype=dtype)
        q_idx = np.arange(qs, qs + bq)
        for ks in range(0, n_k, block_size):
            if causal and ks > q_idx[-1]:
                break
            s = (Qi @ K[ks:ks + block_size].T) * scale
            if causal:
                s[np.arange(ks, ks + s.shape[1])[None, :] > q_idx[:, None]] = -np.inf
            new_max = np.maximum(row_max, s.max(axis=1))
            shift = np.where(np.isfinite(new_max), new_max, 0.0)
            p = np.exp(s - shift[:, None])
            alpha = np.exp(row_max - shift)
            row_sum = alpha * row_sum + p.sum(axis=1)
            acc = alpha[:, None] * acc + p @ V[ks:ks + block_size]
            row_max = new_max
        nz = row_sum > 0
        out[qs:qs + bq][nz] = acc[nz] / row_sum[nz, None]
    return out
