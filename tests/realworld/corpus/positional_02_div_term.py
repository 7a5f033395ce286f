"""Correct encodings in the PyTorch-tutorial style: div_term = exp(arange(0, d, 2) * -(log(10000)/d)),
and RoPE via stacked rotation of the even/odd views (x * cos + rotate_pairs(x) * sin, interleaved
tables built with np.repeat).
"""
import math

import numpy as np

EXPECTED = {"exercise": "positional", "mistake": None}


def sinusoidal_encoding(seq_len, d_model):
    position = np.arange(seq_len)[:, None].astype(float)
    div_term = np.exp(np.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe = np.zeros((seq_len, d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)[:, : d_model // 2]
    return pe


def _rotate_pairs(x):
    """(x0, x1, x2, x3, ...) -> (-x1, x0, -x3, x2, ...)."""
    out = np.empty_like(x)
    out[..., 0::2] = -x[..., 1::2]
    out[..., 1::2] = x[..., 0::2]
    return out


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    seq_len, dim = x.shape[-2], x.shape[-1]
    if dim % 2:
        raise ValueError(f"odd feature size {dim}")
    t = np.arange(seq_len, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    freqs = np.exp(np.arange(0, dim, 2) * -(math.log(base) / dim))
    angles = np.repeat(np.outer(t, freqs), 2, axis=-1)          # (n, d): each angle twice, interleaved
    cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
    return x * cos + _rotate_pairs(x) * sin
