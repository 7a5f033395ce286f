"""Tiled attention with `scale = 1 / np.sqrt(d)` (d an int), otherwise the textbook online softmax.

Bug: np.sqrt(d) is a NumPy float64 scalar, so float32 inputs come back as float64 under NumPy 2.
"""
import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_sqrt_promotes_float32"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    if Q.dtype.kind != "f":
        Q, K, V = Q.astype(np.float64), K.astype(np.float64), V.astype(np.float64)
    n_q, d = Q.shape
    scale = 1 / np.sqrt(d)
    row_max = np.full(n_q, -np.inf, dtype=Q.dtype)
    row_sum = np.zeros(n_q, dtype=Q.dtype)
    acc = np.zeros((n_q, V.shape[1]), dtype=Q.dtype)
    for lo in range(0, K.shape[0], block_size):
        hi = min(lo + block_size, K.shape[0])
        s = Q @ K[lo:hi].T * scale
        if causal:
            s[np.arange(lo, hi)[None, :] > np.arange(n_q)[:, None]] = -np.inf
        m = np.maximum(row_max, s.max(axis=1))
        m_safe = np.where(np.isinf(m), 0.0, m)
        p = np.exp(s - m_safe[:, None])
        fix = np.exp(row_max - m_safe)
        row_sum = row_sum * fix + p.sum(axis=1)
        acc = acc * fix[:, None] + p @ V[lo:hi]
        row_max = m
    return np.divide(acc, row_sum[:, None], out=np.zeros_like(acc), where=row_sum[:, None] > 0)
