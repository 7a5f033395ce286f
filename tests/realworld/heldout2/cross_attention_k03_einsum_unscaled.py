"""Held-out #2: a cross-attention written out with einsum (``bqd,bkd->bqk``-style, here with ``...``) and its own
softmax call, the 1/sqrt(d_k) forgotten."""
import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_no_scale"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z must have the same leading dimensions")
    q = np.einsum("...qd,de->...qe", X, np.asarray(W_Q))
    k = np.einsum("...kd,de->...ke", Z, np.asarray(W_K))
    v = np.einsum("...kd,de->...ke", Z, np.asarray(W_V))
    scores = np.einsum("...qe,...ke->...qk", q, k)
    if key_padding_mask is not None:
        kpm = np.asarray(key_padding_mask, dtype=bool)
        if kpm.shape != Z.shape[:-1]:
            raise ValueError("key_padding_mask must have shape Z.shape[:-1]")
        scores = apply_mask(scores, kpm[..., None, :])
    weights = softmax(scores, axis=-1)
    return np.einsum("...qk,...ke->...qe", weights, v), weights
