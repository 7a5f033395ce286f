"""Correct attention ported line by line from a PyTorch assignment: `K.mT` becomes a swapaxes helper,
`masked_fill(~mask, float('-inf'))` a np.where helper, `torch.softmax` the sibling softmax.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": None}


def _mT(a):
    return np.swapaxes(a, -2, -1)


def _masked_fill(t, where, value):
    t = t if t.dtype.kind == "f" else t.astype(np.float64)
    return np.where(where, value, t)


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = K.shape[-1]
    dot_product = Q @ _mT(K) / math.sqrt(d_k)
    if mask is not None:
        dot_product = _masked_fill(dot_product, ~np.asarray(mask, dtype=bool), float("-inf"))
    attn = softmax(dot_product, axis=-1)
    return attn @ V, attn


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
