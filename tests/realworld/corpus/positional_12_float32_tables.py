"""Interleaved RoPE whose cos/sin cache is always built in float32 (a `compute_cos_sin_cache(...,
dtype=np.float32)` helper from an accelerator port); sinusoidal table correct.

Bug: float64 inputs are rotated with float32-precision angles (errors around 1e-7 and growing with
the position).
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "rope_float32_tables"}


def sinusoidal_encoding(seq_len, d_model):
    angle = np.arange(seq_len)[:, None] / 10000.0 ** (np.arange(0, d_model, 2)[None, :] / d_model)
    table = np.empty((seq_len, d_model))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)[:, : d_model // 2]
    return table


def compute_cos_sin_cache(head_dim, positions, base=10000.0, dtype=np.float32):
    freqs = 1.0 / (base ** (np.arange(0, head_dim, 2)[: head_dim // 2] / head_dim))
    t = np.asarray(positions, dtype=np.float32)
    angles = np.outer(t, freqs).astype(dtype)
    return np.cos(angles, dtype=dtype), np.sin(angles, dtype=dtype)


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    x = x.astype(np.float64) if not np.issubdtype(x.dtype, np.floating) else x
    seq_len, head_dim = x.shape[-2:]
    if head_dim % 2 != 0:
        raise ValueError("head_dim must be even")
    cos, sin = compute_cos_sin_cache(head_dim, np.arange(seq_len) if positions is None else positions, base)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * cos - x[..., 1::2] * sin
    out[..., 1::2] = x[..., 0::2] * sin + x[..., 1::2] * cos
    return out
