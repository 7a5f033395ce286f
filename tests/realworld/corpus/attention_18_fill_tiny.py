"""Attention ported from `attention_logits.masked_fill_(mask == 0, 1e-15)`: forbidden scores set to a
tiny positive number (a "near zero" fill meant for the weights, used on the scores).

Bug: forbidden scores become ~0, which still gets weight exp(0) after the softmax.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_mask_zero"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    query, key, value = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = query.shape[-1]
    attention_logits = query @ np.swapaxes(key, -2, -1)
    attention_logits = attention_logits / math.sqrt(d_k)
    if mask is not None:
        attention_logits = np.where(np.asarray(mask) == 0, 1e-15, attention_logits)
    attention = softmax(attention_logits, axis=-1)
    return attention @ value, attention


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
