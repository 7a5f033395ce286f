"""Held-out, correct: both encodings vectorised with broadcasting and an explicit rotation of pairs."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": None}


def sinusoidal_encoding(seq_len, d_model):
    position = np.arange(seq_len)[:, None].astype(float)
    div = np.exp(np.arange(0, d_model, 2) * (-np.log(10000.0) / d_model))
    pe = np.zeros((seq_len, d_model))
    pe[:, 0::2] = np.sin(position * div)
    pe[:, 1::2] = np.cos(position * div[: d_model // 2])
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(float)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError("apply_rope needs an even d")
    pos = np.arange(n, dtype=float) if positions is None else np.asarray(positions, dtype=float)
    theta = pos[:, None] * base ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    a, b = x[..., 0::2], x[..., 1::2]
    return np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1).reshape(x.shape)
