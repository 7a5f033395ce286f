"""Sinusoidal table filled in pairs by a loop over range(0, d_model - 1, 2), so an odd d_model never
reaches its last column (a fix for the IndexError of the naive pair loop).

Bug: with odd d_model the last (sin) column stays zero.
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_odd_last_column_zero"}


def sinusoidal_encoding(seq_len, d_model):
    PE = np.zeros((seq_len, d_model))
    positions = np.arange(seq_len)
    for i in range(0, d_model - 1, 2):
        denominator = 10000 ** (i / d_model)
        PE[:, i] = np.sin(positions / denominator)
        PE[:, i + 1] = np.cos(positions / denominator)
    return PE


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    d = x.shape[-1]
    if d % 2:
        raise ValueError("apply_rope: odd d")
    where = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    theta = np.outer(where, 1.0 / np.power(base, np.arange(0, d, 2) / d))
    c = np.cos(theta).astype(x.dtype)
    s = np.sin(theta).astype(x.dtype)
    y = x.copy()
    y[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    y[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return y
