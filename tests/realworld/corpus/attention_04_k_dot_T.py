"""Attention with `np.matmul(q, k.T) / math.sqrt(d_k)`, the form of many 2-D tutorials.

Bug: K.T reverses every axis, so batched (3-D and more) inputs fail or mix batches.
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_k_transpose_batched"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    q, k, v = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = q.shape[-1]
    scaled = np.matmul(q, k.T) * (1.0 / math.sqrt(d_k))
    if mask is not None:
        scaled = apply_mask(scaled, mask)
    attention = softmax(scaled, axis=-1)
    return np.matmul(attention, v), attention


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
