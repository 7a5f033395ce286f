"""Tiled attention with float32 running buffers (torch.zeros' default dtype, kept in a numpy port).

Bug: float64 inputs are accumulated in float32.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_float32_accumulation"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    out_dtype = np.result_type(Q, K, V, 1.0)
    n_q = Q.shape[0]
    output_buffer = np.zeros((n_q, V.shape[1]), dtype=np.float32)
    denom = np.zeros((n_q, 1), dtype=np.float32)
    m = np.full((n_q, 1), -np.inf, dtype=np.float32)
    scale = np.float32(1 / math.sqrt(Q.shape[1]))
    for j in range(0, K.shape[0], block_size):
        s = (Q @ K[j:j + block_size].T).astype(np.float32) * scale
        if causal:
            s[np.arange(j, j + s.shape[1])[None, :] > np.arange(n_q)[:, None]] = -np.inf
        m_new = np.maximum(m, s.max(axis=1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, np.float32(0))
        p = np.exp(s - shift)
        corr = np.exp(m - shift)
        denom = corr * denom + p.sum(axis=1, keepdims=True)
        output_buffer = corr * output_buffer + p @ V[j:j + block_size].astype(np.float32)
        m = m_new
    result = np.divide(output_buffer, denom, out=np.zeros_like(output_buffer), where=denom > 0)
    return result.astype(out_dtype)
