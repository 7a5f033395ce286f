"""Held-out #2: the key padding mask expanded with ``[..., :, None]`` (as a column, the way a query mask is
expanded), so it hides the rows of padded query positions instead of the padded keys."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_padding_on_queries"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z must have the same leading dimensions")
    q, k, v = X @ np.asarray(W_Q), Z @ np.asarray(W_K), Z @ np.asarray(W_V)
    mask = None
    if key_padding_mask is not None:
        kpm = np.asarray(key_padding_mask, dtype=bool)
        if kpm.shape != Z.shape[:-1]:
            raise ValueError("key_padding_mask must have shape Z.shape[:-1]")
        mask = kpm[..., :, None]
    return scaled_dot_product_attention(q, k, v, mask)
