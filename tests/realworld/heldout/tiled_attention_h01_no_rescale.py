"""Held-out: online softmax that updates the running max but does not rescale the running output by
exp(m_old - m_new). Style: a first attempt at FlashAttention in numpy."""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_no_rescale_output"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    if block_size < 1:
        raise ValueError("block_size must be positive")
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    scale = 1.0 / math.sqrt(Q.shape[1])
    m = np.full(n_q, -np.inf, dtype=dt)
    l = np.zeros(n_q, dtype=dt)  # noqa: E741
    acc = np.zeros((n_q, V.shape[1]), dtype=dt)
    rows = np.arange(n_q)[:, None] + (n_k - n_q)
    for s in range(0, n_k, block_size):
        e = min(s + block_size, n_k)
        sc = (Q @ K[s:e].T) * scale
        if causal:
            sc = np.where(np.arange(s, e)[None, :] <= rows, sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=1))
        safe = np.where(np.isfinite(m_new), m_new, 0)
        p = np.exp(sc - safe[:, None])
        l = l * np.exp(np.where(np.isfinite(m), m - safe, -np.inf)) + p.sum(axis=1)  # noqa: E741
        acc = acc + p @ V[s:e]
        m = m_new
    return np.divide(acc, l[:, None], out=np.zeros_like(acc), where=l[:, None] > 0)
