"""Held-out #3: linear attention with ``relu`` as its feature map (one of the maps kernel-attention libraries offer
beside elu + 1, and the default of some GPU kernels), used where this API documents elu + 1."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "other_algorithm"}


def elu_feature_map(x):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    return np.maximum(x, 0)


def linear_attention(Q, K, V, causal=False, eps=1e-6):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    dt = np.result_type(Q, K, V, 1.0)
    if causal and Q.shape[-2] != K.shape[-2]:
        raise ValueError("causal linear attention needs n_q == n_k")
    q, k, v = elu_feature_map(Q.astype(dt)), elu_feature_map(K.astype(dt)), V.astype(dt)
    if not causal:
        kv = np.einsum("...nd,...ne->...de", k, v)
        z = k.sum(axis=-2)
        num = np.einsum("...nd,...de->...ne", q, kv)
        den = np.einsum("...nd,...d->...n", q, z)[..., None]
    else:
        kv = np.cumsum(np.einsum("...nd,...ne->...nde", k, v), axis=-3)
        z = np.cumsum(k, axis=-2)
        num = np.einsum("...nd,...nde->...ne", q, kv)
        den = np.einsum("...nd,...nd->...n", q, z)[..., None]
    return num / (den + eps)
