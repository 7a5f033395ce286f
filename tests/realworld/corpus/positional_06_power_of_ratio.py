"""Sinusoidal table with the angle written as (pos / 10000) ** (2i / d_model), a misplaced parenthesis
of pos / 10000 ** (2i / d_model).

Bug: (pos/10000)**(2i/d) instead of pos / 10000**(2i/d).
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_power_of_ratio"}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    for pos in range(seq_len):
        for i in range(0, d_model, 2):
            angle = (pos / 10000) ** (i / d_model)
            pe[pos, i] = np.sin(angle)
            if i + 1 < d_model:
                pe[pos, i + 1] = np.cos(angle)
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.array(x, dtype=float) if np.asarray(x).dtype.kind in "iub" else np.asarray(x)
    if x.shape[-1] & 1:
        raise ValueError("odd d")
    n, d = x.shape[-2], x.shape[-1]
    pos = np.arange(n) if positions is None else positions
    angles = np.asarray(pos, dtype=np.float64)[:, None] / base ** (np.arange(0, d, 2) / d)   # (n, d/2)
    rot = np.empty((n, d // 2, 2, 2))                       # one 2x2 rotation matrix per (position, pair)
    rot[..., 0, 0], rot[..., 0, 1] = np.cos(angles), -np.sin(angles)
    rot[..., 1, 0], rot[..., 1, 1] = np.sin(angles), np.cos(angles)
    pairs = x.reshape(*x.shape[:-1], d // 2, 2)
    return np.einsum("npij,...npj->...npi", rot.astype(x.dtype), pairs).reshape(x.shape)
