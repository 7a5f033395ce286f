"""Held-out #2: key blocks enumerated as ``range(n_k // block_size)`` (a kernel's grid of full tiles, where the
tail is handled elsewhere): when block_size does not divide n_k the last keys are never visited."""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_last_block_dropped"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    scale = 1.0 / math.sqrt(Q.shape[1])
    acc = np.zeros((n_q, V.shape[1]), dt)
    m = np.full(n_q, -np.inf, dt)
    s = np.zeros(n_q, dt)
    rows = np.arange(n_q)[:, None]
    for b in range(n_k // block_size):
        lo, hi = b * block_size, (b + 1) * block_size
        sc = (Q @ K[lo:hi].T) * scale
        if causal:
            sc = np.where(np.arange(lo, hi)[None, :] > rows, -np.inf, sc)
        new_m = np.maximum(m, sc.max(axis=1))
        safe = np.where(np.isfinite(new_m), new_m, 0)
        p = np.exp(sc - safe[:, None])
        corr = np.exp(m - safe)
        s = s * corr + p.sum(axis=1)
        acc = acc * corr[:, None] + p @ V[lo:hi]
        m = new_m
    return np.divide(acc, s[:, None], out=np.zeros_like(acc), where=s[:, None] > 0)
