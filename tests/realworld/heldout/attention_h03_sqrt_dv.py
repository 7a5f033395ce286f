"""Held-out: scaled by the size of the value vectors (``V.shape[-1]``), a slip seen where d_k = d_v in every
example the author tried."""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "attention_scale_by_dv"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q = np.asarray(Q, dtype=np.result_type(np.asarray(Q), 1.0))
    K = np.asarray(K, dtype=Q.dtype)
    V = np.asarray(V, dtype=Q.dtype)
    d = V.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / float(d) ** 0.5
    if mask is not None:
        scores = apply_mask(scores, mask)
    w = softmax(scores)
    return np.matmul(w, V), w


def self_attention(X, W_Q, W_K, W_V, mask=None):
    return scaled_dot_product_attention(np.asarray(X) @ W_Q, np.asarray(X) @ W_K, np.asarray(X) @ W_V, mask)
