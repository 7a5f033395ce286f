"""Tiled attention that rescales the running output when the max grows but adds to the running sum
as if it were still valid (half of the correction applied).

Bug: the running sum is not rescaled.
"""
import math

import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "tiled_no_rescale_sum"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    if block_size < 1:
        raise ValueError("block_size must be positive")
    ftype = np.result_type(Q, K, V, 1.0)
    n_q = Q.shape[0]
    best = np.full((n_q, 1), -np.inf, dtype=ftype)
    norm = np.zeros((n_q, 1), dtype=ftype)
    num = np.zeros((n_q, V.shape[1]), dtype=ftype)
    for k0 in range(0, K.shape[0], block_size):
        block = (Q @ K[k0:k0 + block_size].T).astype(ftype) / math.sqrt(Q.shape[1])
        if causal:
            future = np.arange(k0, k0 + block.shape[1])[None, :] > np.arange(n_q)[:, None]
            block = np.where(future, -np.inf, block)
        new_best = np.maximum(best, block.max(axis=1, keepdims=True))
        ref = np.where(np.isfinite(new_best), new_best, 0)
        w = np.exp(block - ref)
        norm = norm + w.sum(axis=1, keepdims=True)
        num = num * np.exp(best - ref) + w @ V[k0:k0 + block_size]
        best = new_best
    return np.divide(num, norm, out=np.zeros_like(num), where=norm > 0)
