"""Held-out #2: an encoder-decoder layer written from a self-attention block by renaming inputs: the keys come
from Z but ``V = X @ W_V`` still projects the decoder's own tokens."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_values_from_x"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z must have the same leading dimensions")
    mask = None
    if key_padding_mask is not None:
        key_padding_mask = np.asarray(key_padding_mask, dtype=bool)
        if key_padding_mask.shape != Z.shape[:-1]:
            raise ValueError("key_padding_mask must have shape Z.shape[:-1]")
        mask = key_padding_mask[..., None, :]
    return scaled_dot_product_attention(X @ np.asarray(W_Q), Z @ np.asarray(W_K), X @ np.asarray(W_V), mask)
