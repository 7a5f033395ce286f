"""Held-out #3: sinusoidal encodings whose exponent uses the column index itself, ``pos / 10000**(i / d)`` for
every column i, and sin/cos picked by parity afterwards (the pair index 2i of the paper read as i)."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_exponent_i"}


def sinusoidal_encoding(seq_len, d_model):
    pos = np.arange(seq_len, dtype=np.float64)[:, None]
    i = np.arange(d_model, dtype=np.float64)[None, :]
    angles = pos / np.power(10000.0, i / d_model)
    return np.where(np.arange(d_model) % 2 == 0, np.sin(angles), np.cos(angles))


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError(f"apply_rope needs an even feature size, got d={d}")
    pos = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    theta = pos[:, None] * base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * cos - x[..., 1::2] * sin
    out[..., 1::2] = x[..., 0::2] * sin + x[..., 1::2] * cos
    return out
