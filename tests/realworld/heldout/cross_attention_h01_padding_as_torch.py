"""Held-out: cross-attention that reads key_padding_mask in torch's convention (True = padding), ported from
``nn.MultiheadAttention`` usage."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_padding_inverted"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z must have the same leading dimensions")
    if key_padding_mask is not None and np.shape(key_padding_mask) != Z.shape[:-1]:
        raise ValueError("key_padding_mask must have Z's shape without its last axis")
    q, k, v = X @ W_Q, Z @ W_K, Z @ W_V
    if q.dtype.kind != "f":
        q, k, v = q.astype(float), k.astype(float), v.astype(float)
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if key_padding_mask is not None:
        s = np.where(np.asarray(key_padding_mask, dtype=bool)[..., None, :], -np.inf, s)
    w = softmax(s, axis=-1)
    return w @ v, w
