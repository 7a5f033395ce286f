"""Held-out #2: a sinusoidal table where the position is multiplied by ``10000 ** (2i / d)`` instead of divided
by it (the sign of the exponent lost when rewriting the division as a product)."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_exponent_sign"}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    pos = np.arange(seq_len)[:, None]
    two_i = np.arange(0, d_model, 2)[None, :]
    angle = pos * np.power(10000.0, two_i / d_model)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError("d must be even")
    pos = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = pos[:, None] * base ** (-np.arange(0, d, 2) / d)[None, :]
    c, s = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return out
