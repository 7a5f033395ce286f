"""Sinusoidal table that takes i from np.arange(0, d_model, 2) and then writes the formula's 2i again.

Bug: the exponent is 4i/d_model (2 * an index that is already even).
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_exponent_4i"}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    position = np.arange(seq_len)[:, None]
    i = np.arange(0, d_model, 2)
    angle = position / 10000 ** (2 * i / d_model)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe


def apply_rope(x, positions=None, base=10000.0):
    arr = np.asarray(x)
    arr = arr.astype(np.float64) if arr.dtype.kind in "iub" else arr
    if arr.shape[-1] % 2:
        raise ValueError("even feature size required")
    n, d = arr.shape[-2], arr.shape[-1]
    m = np.arange(n) if positions is None else np.asarray(positions)
    theta = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    z = (arr[..., 0::2] + 1j * arr[..., 1::2]) * np.exp(1j * m[:, None] * theta[None, :])
    return np.stack([z.real, z.imag], axis=-1).reshape(arr.shape).astype(arr.dtype)
