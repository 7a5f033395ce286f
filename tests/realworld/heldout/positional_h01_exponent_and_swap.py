"""Held-out: sinusoidal table with the exponent written ``i / d_model`` (not ``2i / d_model``) and cos in the even
columns, sin in the odd ones: two mistakes at once, from a blog's pseudo-code."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_exponent_i+sinusoidal_sin_cos_swapped"}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    for pos in range(seq_len):
        for i in range(0, d_model, 2):
            pe[pos, i] = np.cos(pos / 10000 ** ((i // 2) / d_model))
            if i + 1 < d_model:
                pe[pos, i + 1] = np.sin(pos / 10000 ** ((i // 2) / d_model))
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError("d must be even")
    pos = np.arange(n, dtype=float) if positions is None else np.asarray(positions, dtype=float)
    inv = 1.0 / base ** (np.arange(0, d, 2) / d)
    ang = np.outer(pos, inv)
    c, s = np.cos(ang).astype(x.dtype), np.sin(ang).astype(x.dtype)
    out = np.empty_like(x)
    out[..., ::2] = x[..., ::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., ::2] * s + x[..., 1::2] * c
    return out
