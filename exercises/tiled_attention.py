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
    # TODO: implement tiled_attention: an online softmax over key blocks (running max, sum and output)
    raise NotImplementedError('implement tiled_attention: an online softmax over key blocks (running max, sum and output)')
