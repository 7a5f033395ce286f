"""Attention whose inline softmax normalises axis 0 (`np.sum(np.exp(x), axis=0)`), the column-wise
softmax of some 2-D notebooks.

Bug: each key's weights over the queries sum to 1, instead of each query's weights over the keys.
"""
import math

import numpy as np

EXPECTED = {"exercise": "attention", "mistake": "attention_softmax_wrong_axis"}


def _softmax_cols(x):
    top = np.max(x, axis=-2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(x - top)
    tot = np.sum(e, axis=-2, keepdims=True)
    return np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    logits = np.matmul(Q, np.swapaxes(K, -1, -2)) / math.sqrt(Q.shape[-1])
    if mask is not None:
        logits = np.where(mask, logits, -np.inf)
    weights = _softmax_cols(logits)
    return np.matmul(weights, V), weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V), mask)
