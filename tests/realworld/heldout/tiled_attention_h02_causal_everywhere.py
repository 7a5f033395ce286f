"""Held-out: tiled attention whose causal test ``j <= i`` is applied whatever ``causal`` says (the flag is read
only to skip blocks above the diagonal, and that skip was commented out)."""
import numpy as np

EXPECTED = {"exercise": "tiled_attention", "mistake": "setting_applied"}


def tiled_attention(Q, K, V, block_size=64, causal=False):
    if block_size < 1:
        raise ValueError("block_size must be at least 1")
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    dtype = np.result_type(Q, K, V, 1.0)
    Q, K, V = Q.astype(dtype), K.astype(dtype), V.astype(dtype)
    n_q, n_k = len(Q), len(K)
    out = np.zeros((n_q, V.shape[1]), dtype)
    run_max = np.full((n_q, 1), -np.inf, dtype)
    run_sum = np.zeros((n_q, 1), dtype)
    qi = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        kj = np.arange(start, min(start + block_size, n_k))
        s = Q @ K[kj].T * dtype.type(1.0 / np.sqrt(Q.shape[1]))
        s = np.where(kj[None, :] <= qi, s, -np.inf)
        new_max = np.maximum(run_max, s.max(axis=1, keepdims=True))
        shift = np.where(np.isinf(new_max), 0, new_max)
        p = np.exp(s - shift)
        corr = np.exp(np.where(np.isinf(run_max), -np.inf, run_max - shift))
        run_sum = run_sum * corr + p.sum(axis=1, keepdims=True)
        out = out * corr + p @ V[kj]
        run_max = new_max
    return np.divide(out, run_sum, out=np.zeros_like(out), where=run_sum > 0)
