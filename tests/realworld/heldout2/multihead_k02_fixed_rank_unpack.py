"""Held-out #2: a practice-site solution that opens with ``batch_size, seq_len, d_model = X.shape`` and
hard-codes ``transpose(0, 2, 1, 3)``: right for a batch of sequences, an unpacking error for one sequence."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "multihead", "mistake": "error_unpack_rank"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    *batch, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    return np.swapaxes(X.reshape(*batch, n, n_heads, d_model // n_heads), -3, -2)


def merge_heads(X):
    X = np.asarray(X)
    *batch, h, n, d = X.shape
    return np.swapaxes(X, -3, -2).reshape(*batch, n, h * d)


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    batch_size, seq_len, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads:
        raise ValueError("d_model must be divisible by n_heads")
    d_k = d_model // n_heads

    def heads(W):
        return (X @ np.asarray(W)).reshape(batch_size, seq_len, n_heads, d_k).transpose(0, 2, 1, 3)

    Q, K, V = heads(W_Q), heads(W_K), heads(W_V)
    scores = Q @ K.transpose(0, 1, 3, 2) / float(np.sqrt(d_k))
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        if m.ndim >= 2:
            m = m[..., None, :, :]
        scores = np.where(m, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    context = (weights @ V).transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
    return context @ np.asarray(W_O), weights
