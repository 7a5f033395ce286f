"""Held-out #2: the causal case computed as the masked quadratic form ``(phi(Q) phi(K)^T * tril) V`` (the
"attention matrix" view of linear attention): right values, but an (n, n) array is built."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "linear_full_matrix"}


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
    if causal:
        A = q @ np.swapaxes(k, -1, -2)
        A = A * np.tril(np.ones((n_q, n_k), dtype=dt))
        return (A @ v) / (A.sum(axis=-1, keepdims=True) + eps)
    kv = np.swapaxes(k, -1, -2) @ v
    z = k.sum(axis=-2)[..., None]
    return (q @ kv) / (q @ z + eps)
