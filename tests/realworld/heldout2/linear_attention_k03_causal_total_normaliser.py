"""Held-out #2: a recurrent (per-position loop) causal linear attention that accumulates the state ``S`` step by
step but normalises with ``z`` summed over every key before the loop (copied from the non-causal branch)."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "linear_causal_normaliser_future"}


def elu_feature_map(x):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))


def linear_attention(Q, K, V, causal=False, eps=1e-6):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    dt = np.result_type(Q, K, V, 1.0)
    n_q, n_k = Q.shape[-2], K.shape[-2]
    if causal and n_q != n_k:
        raise ValueError("causal linear attention needs n_q == n_k")
    q, k, v = elu_feature_map(Q.astype(dt)), elu_feature_map(K.astype(dt)), V.astype(dt)
    z = k.sum(axis=-2)
    if not causal:
        S = np.swapaxes(k, -1, -2) @ v
        return (q @ S) / ((q * z[..., None, :]).sum(axis=-1, keepdims=True) + eps)
    S = np.zeros(k.shape[:-2] + (k.shape[-1], v.shape[-1]), dt)
    out = np.empty(q.shape[:-1] + (v.shape[-1],), dt)
    for i in range(n_q):
        S = S + k[..., i, :, None] * v[..., i, None, :]
        num = (q[..., i, None, :] @ S)[..., 0, :]
        den = (q[..., i, :] * z).sum(axis=-1, keepdims=True)
        out[..., i, :] = num / (den + eps)
    return out
