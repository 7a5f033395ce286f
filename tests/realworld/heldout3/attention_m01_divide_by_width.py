"""Held-out #3: a course-assignment flash-attention reference that scales the scores by ``1 / d`` (the model
width) where ``1 / sqrt(d)`` is meant, used here as plain attention."""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_divide_by_dk"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    d = Q.shape[-1]
    scores = (Q @ np.swapaxes(K, -1, -2)) * (1.0 / d)
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
