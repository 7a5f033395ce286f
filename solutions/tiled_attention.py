"""Exercise ``tiled_attention``: flash-style attention with an online softmax.

The n x n weight matrix is what makes attention's memory quadratic (n = 4096: 16M
floats, 64 MB per head). Processing the keys block by block while keeping a running
max, a running sum and a running output gives the same result in
O(block_size * (n_q + d)) extra memory. Reading: "FlashAttention: Fast and Memory-Efficient
Exact Attention with IO-Awareness" (2022); "Online normalizer calculation for softmax" (2018).
"""
import math

import numpy as np


def tiled_attention(Q, K, V, block_size=64, causal=False):
    """Exact scaled dot-product attention computed over blocks of keys.

    Parameters
    ----------
    Q : array_like, shape (n_q, d_k)
    K : array_like, shape (n_k, d_k)
    V : array_like, shape (n_k, d_v)
    block_size : int, optional
        Number of keys processed at once (any positive size; need not divide n_k).
    causal : bool, optional
        If True, query ``i`` attends only keys ``j <= i``.

    Returns
    -------
    numpy.ndarray, shape (n_q, d_v)
        Equal to ``scaled_dot_product_attention(Q, K, V, mask)[0]`` (rtol 1e-9 in
        float64), without ever building an (n_q, n_k) array. A query with no allowed key
        gets a zero row.
    """
    ### BEGIN SOLUTION implement tiled_attention: an online softmax over key blocks (running max, sum and output)
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    # anchor: tiled_attention.dtype
    dtype = np.result_type(Q, K, V, 1.0)    # float32 stays float32, ints become float64
    if block_size < 1:
        raise ValueError(f"block_size must be positive, got {block_size}")
    Q, K, V = Q.astype(dtype, copy=False), K.astype(dtype, copy=False), V.astype(dtype, copy=False)
    n_q, d_k = Q.shape
    n_k, d_v = V.shape
    # anchor: tiled_attention.scale
    scale = 1.0 / math.sqrt(d_k)
    running_max = np.full(n_q, -np.inf, dtype=dtype)   # (n_q,) max score seen so far per query
    running_sum = np.zeros(n_q, dtype=dtype)           # (n_q,) sum of exp(score - running_max)
    running_out = np.zeros((n_q, d_v), dtype=dtype)    # (n_q, d_v) unnormalised weighted values
    query_index = np.arange(n_q)[:, None]              # (n_q, 1)
    for start in range(0, n_k, block_size):
        if causal and start > n_q - 1:
            break                                      # every later key is in every query's future
        stop = min(start + block_size, n_k)
        scores = Q @ K[start:stop].T                   # (n_q, d_k) @ (d_k, b) -> (n_q, b)
        # anchor: tiled_attention.scale_scores
        scores *= scale                                # in place: one (n_q, b) block at a time
        if causal:
            # anchor: tiled_attention.key_index
            key_index = np.arange(start, stop)[None, :]          # (1, b)
            # anchor: tiled_attention.copyto
            np.copyto(scores, -np.inf, where=key_index > query_index)  # future keys -> -inf
        block_max = np.maximum(running_max, scores.max(axis=1))  # (n_q,)
        shift = np.where(np.isfinite(block_max), block_max, 0)   # rows with no allowed key yet
        # anchor: tiled_attention.scores
        scores -= shift[:, None]
        weights = np.exp(scores, out=scores)                      # (n_q, b), masked keys -> 0
        rescale = np.exp(running_max - shift)                     # (n_q,) old max -> new max
        # anchor: tiled_attention.running_sum
        running_sum *= rescale
        # anchor: tiled_attention.running_sum_sum
        running_sum += weights.sum(axis=1)
        # anchor: tiled_attention.running_out
        running_out *= rescale[:, None]
        # anchor: tiled_attention.accumulate
        running_out += weights @ V[start:stop]                    # (n_q, b) @ (b, d_v) -> (n_q, d_v)
        running_max = block_max
    denominator = running_sum[:, None]                 # (n_q, 1)
    # rows with no allowed key have running_out == 0 and stay zero
    # anchor: tiled_attention.return
    return np.divide(running_out, denominator, out=running_out, where=denominator > 0)
    ### END SOLUTION
