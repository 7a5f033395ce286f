"""Held-out #3: cross-attention written with its own softmax, scaling the scores by ``sqrt(Z.shape[-1])`` (the
width of the encoder states the keys come from) instead of the projected key width."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_scale_by_input_width"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z need the same leading dimensions")
    Q, K, V = X @ np.asarray(W_Q), Z @ np.asarray(W_K), Z @ np.asarray(W_V)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Z.shape[-1])
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if key_padding_mask is not None:
        keep = np.asarray(key_padding_mask, dtype=bool)
        if keep.shape != Z.shape[:-1]:
            raise ValueError("key_padding_mask needs one entry per token of Z")
        scores = np.where(keep[..., None, :], scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights
