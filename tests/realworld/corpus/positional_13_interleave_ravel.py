"""Correct encodings built by interleaving: np.stack([sin, cos], axis=-1).reshape(...) for the table
(trimmed for odd d_model), and RoPE with the interleaved tables of np.repeat applied through a
pair-swap view (x.reshape(..., d/2, 2)[..., ::-1]).
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": None}


def sinusoidal_encoding(seq_len, d_model):
    n_pairs = (d_model + 1) // 2
    freq = np.power(10000.0, -2.0 * np.arange(n_pairs) / d_model)
    ang = np.outer(np.arange(seq_len, dtype=np.float64), freq)
    table = np.stack([np.sin(ang), np.cos(ang)], axis=-1).reshape(seq_len, 2 * n_pairs)
    return table[:, :d_model].copy()


def apply_rope(x, positions=None, base=10000.0):
    d = np.shape(x)[-1]
    if d % 2:
        raise ValueError("RoPE: odd feature dimension")
    x = np.asarray(x, dtype=np.result_type(np.asarray(x).dtype, np.float16) if np.asarray(x).dtype.kind == "f"
                   else np.float64)
    pos = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    ang = np.repeat(np.outer(pos.astype(np.float64), base ** (-np.arange(0, d, 2) / d)), 2, axis=1)
    sign = np.tile([-1.0, 1.0], d // 2)
    swapped = x.reshape(*x.shape[:-1], d // 2, 2)[..., ::-1].reshape(x.shape)   # (x1, x0, x3, x2, ...)
    return x * np.cos(ang).astype(x.dtype) + swapped * (sign * np.sin(ang)).astype(x.dtype)
