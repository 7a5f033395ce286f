"""Held-out: weights computed as keys x queries (``K @ Q^T``), softmax over the last axis: the weights come back
(n_k, n_q). Style: blog code that writes ``scores = k @ q.T``."""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "shape_transposed"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if Q.dtype.kind != "f":
        Q, K, V = Q.astype(float), K.astype(float), V.astype(float)
    scores = np.swapaxes(K @ np.swapaxes(Q, -1, -2), -1, -2) * (1.0 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, np.swapaxes(weights, -1, -2)


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
