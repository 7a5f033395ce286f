"""Alternative tiled attention: blocks of queries AND keys (flash-attention-2 style), in-place updates."""
import numpy as np


def tiled_attention(Q, K, V, block_size=64, causal=False):
    if block_size < 1:
        raise ValueError(f"block_size must be at least 1, got {block_size}")
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    dtype = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dtype, copy=False), K.astype(dtype, copy=False), V.astype(dtype, copy=False)
    n_q, d_k = Q.shape
    n_k, d_v = V.shape
    scale = dtype.type(1.0 / np.sqrt(d_k))
    out = np.zeros((n_q, d_v), dtype=dtype)
    for q0 in range(0, n_q, block_size):
        q1 = min(q0 + block_size, n_q)
        q = Q[q0:q1] * scale
        m = np.full(q1 - q0, -np.inf, dtype=dtype)
        s = np.zeros(q1 - q0, dtype=dtype)
        acc = np.zeros((q1 - q0, d_v), dtype=dtype)
        for k0 in range(0, n_k, block_size):
            if causal and k0 > q1 - 1:
                break
            k1 = min(k0 + block_size, n_k)
            scores = q @ K[k0:k1].T
            if causal:
                scores[np.arange(k0, k1)[None, :] > np.arange(q0, q1)[:, None]] = -np.inf
            new_m = np.maximum(m, scores.max(axis=1))
            safe = np.where(new_m == -np.inf, 0, new_m)
            p = np.exp(scores - safe[:, None])
            alpha = np.exp(m - safe)
            s = s * alpha + p.sum(axis=1)
            acc *= alpha[:, None]
            acc += p @ V[k0:k1]
            m = new_m
        np.divide(acc, s[:, None], out=out[q0:q1], where=s[:, None] > 0)
    return out
