"""Held-out #3: cross-attention ported from a torch layer whose ``key_padding_mask`` is True at PAD positions
(``masked_fill(mask, -inf)``), kept although this API's mask is True at real tokens: only padding is attended."""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_padding_inverted"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z need the same leading dimensions")
    Q, K, V = X @ np.asarray(W_Q), Z @ np.asarray(W_K), Z @ np.asarray(W_V)
    mask = None
    if key_padding_mask is not None:
        pad = np.asarray(key_padding_mask, dtype=bool)
        if pad.shape != Z.shape[:-1]:
            raise ValueError("key_padding_mask needs one entry per token of Z")
        mask = ~pad[..., None, :]
    return scaled_dot_product_attention(Q, K, V, mask)
