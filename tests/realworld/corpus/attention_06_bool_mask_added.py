"""Attention that adds the mask to the scores (`scaled = scaled + mask`), the additive-mask recipe of
several tutorials, here given the kit's boolean mask.

Bug: a boolean mask added to the scores: allowed keys get +1, nothing is removed.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_bool_mask_added"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    q, k, v = np.asarray(Q), np.asarray(K), np.asarray(V)
    scaled = q @ np.swapaxes(k, -1, -2) * (1.0 / math.sqrt(q.shape[-1]))
    if mask is not None:
        scaled = scaled + mask
    attention = softmax(scaled)
    return attention @ v, attention


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
