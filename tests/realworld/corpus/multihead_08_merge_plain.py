"""Multi-head merge written as a plain reshape of (..., h, n, d) to (..., n, h*d).

Bug: merge_heads does not move the token axis back in front of the heads.
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "merge_heads_no_transpose"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return np.einsum("...nhd->...hnd", X.reshape(*X.shape[:-1], n_heads, d_model // n_heads))


def merge_heads(X):
    X = np.asarray(X)
    *batch, h, n, d = X.shape
    return X.reshape(*batch, n, h * d)

def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    Q, K, V = (split_heads(X @ np.asarray(W), n_heads) for W in (W_Q, W_K, W_V))
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask, dtype=bool), -3)
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)
    return merge_heads(heads) @ np.asarray(W_O), weights
