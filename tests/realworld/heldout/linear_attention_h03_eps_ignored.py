"""Held-out: eps hard-coded to 1e-6 in the division, the ``eps`` argument unused (kept in the signature only)."""
import numpy as np

EXPECTED = {"exercise": "linear_attention", "mistake": "setting_ignored"}


def elu_feature_map(x):
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    out = x + 1
    neg = x <= 0
    out[neg] = np.exp(x[neg])
    return out


def linear_attention(Q, K, V, causal=False, eps=1e-6):
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    dtype = np.result_type(Q, K, V, 1.0)
    if causal and Q.shape[-2] != K.shape[-2]:
        raise ValueError("causal linear attention needs n_q == n_k")
    fq, fk, V = elu_feature_map(Q.astype(dtype)), elu_feature_map(K.astype(dtype)), V.astype(dtype)
    if causal:
        state = np.cumsum(fk[..., :, :, None] * V[..., :, None, :], axis=-3)
        numerator = (fq[..., :, None, :] @ state)[..., 0, :]
        denominator = (fq * np.cumsum(fk, axis=-2)).sum(-1, keepdims=True)
    else:
        numerator = fq @ (np.swapaxes(fk, -1, -2) @ V)
        denominator = fq @ np.sum(fk, axis=-2)[..., :, None]
    return numerator / (denominator + 1e-6)
