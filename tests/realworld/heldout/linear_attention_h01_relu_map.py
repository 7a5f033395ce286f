"""Held-out: linear attention with another feature map, ReLU (as in some efficient-attention repos), instead of
elu(x) + 1: the feature map checks and every output differ."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "linear_positive_side_without_one"}


def elu_feature_map(x):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(float)
    return np.maximum(x, 0)


def linear_attention(Q, K, V, causal=False, eps=1e-6):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    dt = np.result_type(Q, K, V, 1.0)
    if causal and Q.shape[-2] != K.shape[-2]:
        raise ValueError("causal needs n_q == n_k")
    q, k, v = elu_feature_map(Q.astype(dt)), elu_feature_map(K.astype(dt)), V.astype(dt)
    if causal:
        kv = np.cumsum(k[..., :, :, None] * v[..., :, None, :], axis=-3)
        num = np.einsum("...nd,...nde->...ne", q, kv)
        den = np.einsum("...nd,...nd->...n", q, np.cumsum(k, axis=-2))[..., None]
    else:
        num = q @ (np.swapaxes(k, -1, -2) @ v)
        den = q @ k.sum(axis=-2)[..., None]
    return num / (den + eps)
