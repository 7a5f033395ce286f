"""Attention with `scores / np.sqrt(d_k)` (d_k an int), the most common spelling in numpy tutorials.

Bug: np.sqrt(int) is a NumPy float64 scalar; under NumPy 2 promotion a float32 array divided by it
becomes float64, so float32 inputs give float64 results (values right).
"""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_sqrt_promotes_float32"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(d_k)
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return np.matmul(weights, V), weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
