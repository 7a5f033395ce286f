"""Held-out #3: causal linear attention as the recurrent form (a running state S and normaliser z updated token by
token), its loop written ``for i in range(n - 1)`` as for next-token targets: the last position is never
computed. The non-causal form is the plain regrouped product."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "axis_tail_ignored"}


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
    if not causal:
        S = np.swapaxes(k, -1, -2) @ v
        z = k.sum(axis=-2)[..., None]
        return (q @ S) / (q @ z + eps)
    out = np.zeros((*np.broadcast_shapes(Q.shape[:-2], V.shape[:-2]), n_q, V.shape[-1]), dtype=dt)
    S = np.zeros((*out.shape[:-2], k.shape[-1], v.shape[-1]), dtype=dt)
    z = np.zeros((*out.shape[:-2], k.shape[-1]), dtype=dt)
    for i in range(n_q - 1):
        S = S + k[..., i, :, None] * v[..., i, None, :]
        z = z + k[..., i, :]
        num = np.einsum("...d,...de->...e", q[..., i, :], S)
        den = np.einsum("...d,...d->...", q[..., i, :], z)[..., None]
        out[..., i, :] = num / (den + eps)
    return out
