"""Alternative positional encodings: loops over positions and pairs."""
import math

import numpy as np


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    for p in range(seq_len):
        for col in range(0, d_model, 2):
            angle = p / 10000 ** (col / d_model)
            pe[p, col] = math.sin(angle)
            if col + 1 < d_model:
                pe[p, col + 1] = math.cos(angle)
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2 == 1:
        raise ValueError("odd d")
    positions = range(n) if positions is None else [float(p) for p in positions]
    out = x.copy()
    for row, p in enumerate(positions):
        for i in range(d // 2):
            theta = p * base ** (-2 * i / d)
            c, s = math.cos(theta), math.sin(theta)
            a, b = x[..., row, 2 * i], x[..., row, 2 * i + 1]
            out[..., row, 2 * i] = a * c - b * s
            out[..., row, 2 * i + 1] = a * s + b * c
    return out
