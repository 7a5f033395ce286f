"""Held-out #2: the scale read as ``K.shape[0]`` (in a 2-D notebook written with K of shape (d_k, n) that was the
width; with K as (n_k, d_k) it is the number of keys)."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_scale_by_n_k"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    scores = Q @ np.swapaxes(K, -1, -2)
    scores = scores * (1.0 / float(np.sqrt(K.shape[-2])))
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
