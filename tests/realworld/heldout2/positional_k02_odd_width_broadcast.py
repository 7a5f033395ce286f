"""Held-out #2: the annotated-Transformer table (``div_term = exp(arange(0, d, 2) * -log(10000) / d)``, sin into
even columns, cos into odd ones) ported to numpy: for an odd d_model the odd columns are one fewer than the
frequencies and the assignment fails to broadcast."""
import math

import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "error_broadcast"}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    position = np.arange(0, seq_len, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2, dtype=np.float64) * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
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
