"""Held-out #2 (correct): a tutorial style that turns the boolean mask into an additive table (0 where allowed,
-inf where not, by assigning into a float copy) and adds it to the scaled scores."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": None}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = Q.shape[-1]
    scaled = np.matmul(Q, np.swapaxes(K, -1, -2)) * (1.0 / math.sqrt(d_k))
    if mask is not None:
        table = np.array(mask, dtype=scaled.dtype if scaled.dtype.kind == "f" else np.float64)
        table[table == 0] = -np.inf
        table[table == 1] = 0
        scaled = scaled + table
    attention = softmax(scaled, axis=-1)
    return np.matmul(attention, V), attention


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
