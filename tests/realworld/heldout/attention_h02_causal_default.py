"""Held-out: a decoder-only codebase's attention where the causal mask is built inside and always applied
(``is_causal`` hard-wired), combined with the mask the caller passes."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_always_causal"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    dtype = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dtype), K.astype(dtype), V.astype(dtype)
    n_q, n_k = Q.shape[-2], K.shape[-2]
    scores = np.einsum("...qd,...kd->...qk", Q, K) / math.sqrt(Q.shape[-1])
    allowed = np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
    if mask is not None:
        allowed = allowed & np.asarray(mask, dtype=bool)
    scores = np.where(allowed, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return np.einsum("...qk,...kd->...qd", weights, V), weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
