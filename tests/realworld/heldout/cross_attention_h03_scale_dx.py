"""Held-out: scores divided by the square root of the decoder's model width (X's last axis), a habit from code
where d_model = d_k."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "cross_attention", "mistake": "cross_scale_by_input_width"}


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    X, Z = np.asarray(X), np.asarray(Z)
    if X.shape[:-2] != Z.shape[:-2]:
        raise ValueError("X and Z leading dims differ")
    if key_padding_mask is not None and np.shape(key_padding_mask) != Z.shape[:-1]:
        raise ValueError("mask shape")
    Q = np.einsum("...nd,dk->...nk", X, W_Q)
    K = np.einsum("...md,dk->...mk", Z, W_K)
    V = np.einsum("...md,dv->...mv", Z, W_V)
    if Q.dtype.kind != "f":
        Q, K, V = Q.astype(float), K.astype(float), V.astype(float)
    S = np.einsum("...nk,...mk->...nm", Q, K) / np.sqrt(float(X.shape[-1]))
    if key_padding_mask is not None:
        S = np.where(np.asarray(key_padding_mask, bool)[..., None, :], S, -np.inf)
    A = softmax(S, axis=-1)
    return np.einsum("...nm,...mv->...nv", A, V), A
