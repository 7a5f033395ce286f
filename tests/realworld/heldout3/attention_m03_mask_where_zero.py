"""Held-out #3: a gist-style attention that masks with ``np.where(mask, scores, 0)`` (zero meant as "no
attention"): a hidden key still gets exp(0) of the weight."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_zero"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = (Q @ np.swapaxes(K, -1, -2)) * (1.0 / math.sqrt(Q.shape[-1]))
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, 0.0)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
