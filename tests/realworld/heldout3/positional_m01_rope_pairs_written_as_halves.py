"""Held-out #3: RoPE that takes the pairs interleaved (``x[..., ::2]``, ``x[..., 1::2]``, the RoFormer layout)
but writes the rotated pairs back with ``np.concatenate`` as two halves (the GPT-NeoX layout): two conventions
mixed."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "other_algorithm"}


def sinusoidal_encoding(seq_len, d_model):
    pos = np.arange(seq_len)[:, None].astype(np.float64)
    two_i = np.arange(0, d_model, 2).astype(np.float64)
    angles = pos / 10000.0 ** (two_i / d_model)
    out = np.zeros((seq_len, d_model))
    out[:, 0::2] = np.sin(angles)
    out[:, 1::2] = np.cos(angles[:, : d_model // 2])
    return out


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError(f"apply_rope needs an even feature size, got d={d}")
    pos = np.arange(n) if positions is None else np.asarray(positions)
    inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    theta = np.outer(pos.astype(np.float64), inv_freq)
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    x1, x2 = x[..., ::2], x[..., 1::2]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
