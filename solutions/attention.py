"""Exercise ``attention``: scaled dot-product attention and self-attention.

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V

Reading: "Attention Is All You Need" (2017), section 3.2.1.
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax


def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q K^T / sqrt(d_k)) V, with an optional boolean mask.

    Parameters
    ----------
    Q : array_like, shape (..., n_q, d_k)
        Queries.
    K : array_like, shape (..., n_k, d_k)
        Keys.
    V : array_like, shape (..., n_k, d_v)
        Values.
    mask : array_like of bool, broadcastable to shape (..., n_q, n_k), optional
        True where a query may attend to a key; applied to the scores before the softmax.

    Returns
    -------
    output : numpy.ndarray, shape (..., n_q, d_v)
        Each query's weighted sum of the values.
    weights : numpy.ndarray, shape (..., n_q, n_k)
        The attention weights; each row sums to 1, except a query row with no allowed
        key, whose weights (and output) are all zero.
    """
    ### BEGIN SOLUTION implement scaled_dot_product_attention: scaled scores, mask, softmax over keys, weighted sum of V
    # anchor: scaled_dot_product_attention.q
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = Q.shape[-1]
    # anchor: scaled_dot_product_attention.scores_swapaxes
    scores = Q @ np.swapaxes(K, -1, -2)         # (..., n_q, d_k) @ (..., d_k, n_k) -> (..., n_q, n_k)
    # anchor: scaled_dot_product_attention.scores_sqrt
    scores = scores * (1.0 / math.sqrt(d_k))  # a Python float keeps float32 float32; ints become float64
    # anchor: scaled_dot_product_attention.if_mask
    if mask is not None:
        # anchor: scaled_dot_product_attention.scores
        scores = apply_mask(scores, mask)       # forbidden keys -> -inf, before the softmax
    # anchor: scaled_dot_product_attention.weights
    weights = softmax(scores, axis=-1)          # (..., n_q, n_k), normalised over the keys
    # anchor: scaled_dot_product_attention.output
    output = weights @ V                        # (..., n_q, n_k) @ (..., n_k, d_v) -> (..., n_q, d_v)
    # anchor: scaled_dot_product_attention.return
    return output, weights
    ### END SOLUTION


def self_attention(X, W_Q, W_K, W_V, mask=None):
    """Self-attention: queries, keys and values are projections of the same sequence.

    Parameters
    ----------
    X : array_like, shape (..., n, d_model)
        The input sequence (n tokens).
    W_Q, W_K : array_like, shape (d_model, d_k)
        Query and key projections.
    W_V : array_like, shape (d_model, d_v)
        Value projection.
    mask : array_like of bool, broadcastable to shape (..., n, n), optional
        True where a query may attend to a key.

    Returns
    -------
    output : numpy.ndarray, shape (..., n, d_v)
    weights : numpy.ndarray, shape (..., n, n)
    """
    ### BEGIN SOLUTION implement self_attention: project X to Q, K, V, then scaled dot-product attention
    X = np.asarray(X)
    Q = X @ np.asarray(W_Q)  # (..., n, d_model) @ (d_model, d_k) -> (..., n, d_k)
    K = X @ np.asarray(W_K)  # (..., n, d_model) @ (d_model, d_k) -> (..., n, d_k)
    V = X @ np.asarray(W_V)  # (..., n, d_model) @ (d_model, d_v) -> (..., n, d_v)
    return scaled_dot_product_attention(Q, K, V, mask)
    ### END SOLUTION
