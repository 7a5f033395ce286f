"""Held-out: causal running sums made exclusive (``cumsum(x) - x``): query i sees keys j < i only, as in
prefix-sum code written for "the past" without the present token."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "linear_causal_exclusive"}


def elu_feature_map(x):
    x = np.asarray(x)
    x = x.astype(float) if x.dtype.kind != "f" else x
    return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))


def linear_attention(Q, K, V, causal=False, eps=1e-6):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    dt = np.result_type(Q, K, V, 1.0)
    n_q, n_k = Q.shape[-2], K.shape[-2]
    if causal and n_q != n_k:
        raise ValueError("n_q must equal n_k when causal")
    pq, pk, V = elu_feature_map(Q.astype(dt)), elu_feature_map(K.astype(dt)), V.astype(dt)
    if not causal:
        return (pq @ (np.swapaxes(pk, -1, -2) @ V)) / (pq @ pk.sum(-2)[..., None] + eps)
    outer = pk[..., :, :, None] * V[..., :, None, :]
    S = np.cumsum(outer, axis=-3) - outer
    z = np.cumsum(pk, axis=-2) - pk
    num = np.einsum("...nd,...nde->...ne", pq, S)
    den = np.sum(pq * z, axis=-1, keepdims=True)
    return num / (den + eps)
