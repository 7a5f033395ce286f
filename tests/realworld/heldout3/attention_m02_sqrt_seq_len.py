"""Held-out #3: ``seq_len, d = Q.shape[-2:]`` unpacked, then the scores divided by ``np.sqrt(seq_len)``: the two
names mixed up, so the scale follows the number of queries instead of the key width."""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": "scale_by_other_size"}


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    seq_len, d = Q.shape[-2:]
    scores = Q @ np.swapaxes(K, -1, -2)
    scores = scores * (1.0 / np.sqrt(float(seq_len)))
    if mask is not None:
        scores = apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def self_attention(X, W_Q, W_K, W_V, mask=None):
    X = np.asarray(X)
    return scaled_dot_product_attention(X @ np.asarray(W_Q), X @ np.asarray(W_K), X @ np.asarray(W_V), mask)
