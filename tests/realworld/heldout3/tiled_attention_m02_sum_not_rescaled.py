"""Held-out #3: an online-softmax loop over key blocks that rescales the output accumulator when the running
maximum grows but adds the new block's exponentials to an un-rescaled running sum."""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_no_rescale_sum"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    scale = dt.type(1.0 / math.sqrt(Q.shape[1]))
    row_max = np.full(n_q, -np.inf, dt)
    row_sum = np.zeros(n_q, dt)
    acc = np.zeros((n_q, V.shape[1]), dt)
    query_pos = np.arange(n_q)[:, None]
    for j in range(0, n_k, block_size):
        s = (Q @ K[j:j + block_size].T) * scale
        if causal:
            s = np.where(np.arange(j, j + s.shape[1])[None, :] <= query_pos, s, -np.inf)
        new_max = np.maximum(row_max, s.max(axis=1))
        safe = np.where(np.isfinite(new_max), new_max, 0)
        p = np.exp(s - safe[:, None])
        correction = np.exp(np.where(np.isfinite(row_max), row_max - safe, -np.inf))
        row_sum = row_sum + p.sum(axis=1)
        acc = acc * correction[:, None] + p @ V[j:j + block_size]
        row_max = new_max
    return np.divide(acc, row_sum[:, None], out=np.zeros_like(acc), where=row_sum[:, None] > 0)
