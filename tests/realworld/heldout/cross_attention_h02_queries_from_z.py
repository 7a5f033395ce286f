"""Held-out: the decoder/encoder roles mixed up: queries projected from Z, keys and values from X (a swap of two
arguments in a port of an encoder-decoder block)."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_roles_swapped"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("leading dimensions differ")
    if key_padding_mask is not None and np.shape(key_padding_mask) != Z.shape[:-1]:
        raise ValueError("bad key_padding_mask shape")
    mask = None if key_padding_mask is None else np.asarray(key_padding_mask, dtype=bool)[..., None, :]
    return scaled_dot_product_attention(Z @ W_Q, X @ W_K, X @ W_V, mask)
