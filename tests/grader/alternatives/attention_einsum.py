"""Alternative attention: einsum, with its own inline masking and softmax."""
import numpy as np

from .softmax import softmax


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    if Q.dtype.kind != "f":
        Q = Q.astype(np.float64)
    scores = np.einsum("...qd,...kd->...qk", Q, K) / np.sqrt(Q.shape[-1]).astype(Q.dtype)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf).astype(scores.dtype)
    weights = softmax(scores, axis=-1)
    return np.einsum("...qk,...kv->...qv", weights, V).astype(weights.dtype), weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(np.einsum("...nd,dk->...nk", X, W_Q), np.einsum("...nd,dk->...nk", X, W_K),
                                        np.einsum("...nd,dk->...nk", X, W_V), mask)
