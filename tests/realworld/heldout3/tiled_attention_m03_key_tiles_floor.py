"""Held-out #3: key tiles enumerated as ``range(n_k // tile)`` (a tile count computed once by floor division, as
in assignment kernels that assume divisible lengths): the keys of a last partial tile are never visited."""

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "input_tail_ignored"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if block_size < 1:
        raise ValueError("block_size must be positive")
    dt = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dt), K.astype(dt), V.astype(dt)
    n_q, n_k = Q.shape[0], K.shape[0]
    num_tiles = n_k // block_size
    scale = dt.type(Q.shape[-1] ** -0.5)
    m = np.full(n_q, -np.inf, dt)
    denom = np.zeros(n_q, dt)
    o = np.zeros((n_q, V.shape[1]), dt)
    query_pos = np.arange(n_q)[:, None]
    for j in range(num_tiles):
        k, v = K[j * block_size:(j + 1) * block_size], V[j * block_size:(j + 1) * block_size]
        s = (Q @ k.T) * scale
        if causal:
            s = np.where(np.arange(j * block_size, j * block_size + k.shape[0])[None, :] <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=1))
        safe = np.where(np.isfinite(new_m), new_m, 0)
        p = np.exp(s - safe[:, None])
        diff = np.exp(np.where(np.isfinite(m), m - safe, -np.inf))
        denom = denom * diff + p.sum(axis=1)
        o = o * diff[:, None] + p @ v
        m = new_m
    return np.divide(o, denom[:, None], out=np.zeros_like(o), where=denom[:, None] > 0)
