"""Attention that casts Q, K, V to float32 first (numba/GPU habit) and casts the results back.

Bug: float64 inputs are computed in float32 (about 1e-7 relative error).
"""
import numpy as np

EXPECTED = {"exercise": "attention", "mistake": "attention_float32_compute"}


def _softmax_rows(x):
    m = np.max(x, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, np.float32(0))
    e = np.exp(x - m)
    s = np.sum(e, axis=-1, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)


def scaled_dot_product_attention(Q, K, V, mask=None):
    out_dtype = np.result_type(np.asarray(Q), np.asarray(K), np.asarray(V), 1.0)
    Q = np.asarray(Q).astype(np.float32)
    K = np.asarray(K).astype(np.float32)
    V = np.asarray(V).astype(np.float32)
    d = np.float32(Q.shape[-1])
    scores = (Q @ np.swapaxes(K, -1, -2)) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, np.float32(-np.inf))
    weights = _softmax_rows(scores)
    return (weights @ V).astype(out_dtype), weights.astype(out_dtype)


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
