"""Attention whose masked scores are computed into a new name and then not used (a refactoring slip).

Bug: the mask is ignored; every query attends to every key.
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_ignored"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = Q @ np.swapaxes(K, -1, -2) * (1.0 / math.sqrt(K.shape[-1]))
    if mask is not None:
        masked_scores = apply_mask(scores, mask)  # noqa: F841  (the slip)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
