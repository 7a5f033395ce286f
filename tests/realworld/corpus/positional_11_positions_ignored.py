"""RoPE that accepts `positions` but always rotates row r by position r (arange(n)), as a precomputed
cos/sin cache indexed by the sequence length would; sinusoidal table correct (div_term style).

Bug: the positions argument is ignored.
"""
import math

import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "rope_positions_ignored"}


def sinusoidal_encoding(seq_len, d_model):
    out = np.zeros((seq_len, d_model))
    pos = np.arange(seq_len, dtype=float).reshape(-1, 1)
    term = np.exp(-math.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    out[:, ::2] = np.sin(pos * term)
    if d_model > 1:
        out[:, 1::2] = np.cos(pos * term[: d_model // 2])
    return out


def _cos_sin_cache(seq_len, d, base):
    inv = base ** (-np.arange(0, d, 2) / d)
    ang = np.arange(seq_len)[:, None] * inv
    return np.cos(ang), np.sin(ang)


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x, dtype=np.result_type(np.asarray(x), 1.0))
    *_, n, d = x.shape
    if d % 2 == 1:
        raise ValueError("d must be even")
    cos, sin = _cos_sin_cache(n, d, base)
    cos, sin = cos.astype(x.dtype), sin.astype(x.dtype)
    xe, xo = x[..., ::2], x[..., 1::2]
    return np.stack((xe * cos - xo * sin, xe * sin + xo * cos), axis=-1).reshape(x.shape)
