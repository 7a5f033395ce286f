"""Attention that divides the scores by d_k ("scaled by the dimension"), a frequent misreading.

Bug: divided by d_k instead of sqrt(d_k).
"""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_divide_by_dk"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    queries, keys, values = map(np.asarray, (Q, K, V))
    dim = keys.shape[-1]
    logits = np.einsum("...id,...jd->...ij", queries, keys) / float(dim)   # "scaled by the dimension"
    logits = logits if mask is None else apply_mask(logits, mask)
    attn = softmax(logits)
    return np.einsum("...ij,...jv->...iv", attn, values), attn


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
