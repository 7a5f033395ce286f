"""Sinusoidal table from a pair loop that uses 10000**(i/d) for the sin column and 10000**((i+1)/d)
for the cos column (seen in several course submissions).

Bug: every column gets its own frequency instead of one per (sin, cos) pair.
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_column_frequency"}


def sinusoidal_encoding(seq_len, d_model):
    encoding = np.zeros((seq_len, d_model))
    for pos in range(seq_len):
        for i in range(0, d_model, 2):
            encoding[pos, i] = np.sin(pos / (10000 ** (i / d_model)))
            if i + 1 < d_model:
                encoding[pos, i + 1] = np.cos(pos / (10000 ** ((i + 1) / d_model)))
    return encoding


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d & 1:
        raise ValueError("d must be even for RoPE")
    p = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    out = np.empty_like(x)
    for i in range(d // 2):
        th = p * base ** (-2.0 * i / d)
        c, s = np.cos(th).astype(x.dtype)[:, None], np.sin(th).astype(x.dtype)[:, None]
        a, b = x[..., 2 * i:2 * i + 1], x[..., 2 * i + 1:2 * i + 2]
        out[..., 2 * i:2 * i + 1] = a * c - b * s
        out[..., 2 * i + 1:2 * i + 2] = a * s + b * c
    return out
