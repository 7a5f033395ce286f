"""Sinusoidal table with cos on the even columns and sin on the odd ones (a transcription slip of
PE(pos, 2i) / PE(pos, 2i+1)); RoPE correct.

Bug: sin and cos swapped.
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_sin_cos_swapped"}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    pos = np.arange(seq_len)[:, np.newaxis]
    angle = pos / np.power(10000.0, np.arange(0, d_model, 2) / d_model)
    pe[:, 0::2] = np.cos(angle)
    pe[:, 1::2] = np.sin(angle[:, : d_model // 2])
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    *_, n, d = x.shape
    if d % 2 != 0:
        raise ValueError("apply_rope: d must be even")
    pos = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    ang = np.einsum("n,f->nf", pos, np.power(base, -np.arange(d // 2) * 2.0 / d))
    cos, sin = np.cos(ang).astype(x.dtype), np.sin(ang).astype(x.dtype)
    pairs = x.reshape(*x.shape[:-1], d // 2, 2)
    a, b = pairs[..., 0], pairs[..., 1]
    return np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1).reshape(x.shape)
