"""Sinusoidal table built as np.concatenate([sin, cos], axis=-1) (tensor2tensor / "get_timing_signal"
layout), RoPE correct.

Bug: sin fills the first half of the columns and cos the second half.
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_halves"}


def sinusoidal_encoding(seq_len, d_model):
    half = (d_model + 1) // 2
    pos = np.arange(seq_len, dtype=np.float64)[:, None]
    freq = 1.0 / 10000.0 ** (np.arange(half) * 2.0 / d_model)
    angles = pos * freq
    return np.concatenate([np.sin(angles), np.cos(angles[:, : d_model - half])], axis=-1)


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    x = x if x.dtype.kind == "f" else x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError("d must be even")
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = p[:, None].astype(np.float64) * base ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    out = np.empty_like(x)
    out[..., ::2] = x[..., ::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., ::2] * s + x[..., 1::2] * c
    return out
