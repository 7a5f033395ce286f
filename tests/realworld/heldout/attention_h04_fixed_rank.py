"""Held-out: written for (batch, seq, d) tensors only: ``b, n, d = Q.shape`` and ``K.transpose(0, 2, 1)``; a 2-D call
fails. Style: PyTorch-to-numpy ports."""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "error_unpack_rank"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q, dtype=float), np.asarray(K, dtype=float), np.asarray(V, dtype=float)
    b, n, d = Q.shape
    scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d).item()
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
