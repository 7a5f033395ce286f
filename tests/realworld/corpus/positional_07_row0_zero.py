"""Sinusoidal table in the attention-is-all-you-need-pytorch layout: angles per column j with
2*(j//2)/d, position 0 special-cased to a row of zeros, sin/cos applied to rows 1: only.

Bug: row 0 is left at zero (it must be 0, 1, 0, 1, ...).
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "sinusoidal_row0_zero"}


def sinusoidal_encoding(seq_len, d_model):
    table = np.array([
        [pos / np.power(10000, 2 * (j // 2) / d_model) for j in range(d_model)]
        if pos != 0 else np.zeros(d_model) for pos in range(seq_len)
    ]).reshape(seq_len, d_model)
    table[1:, 0::2] = np.sin(table[1:, 0::2])
    table[1:, 1::2] = np.cos(table[1:, 1::2])
    return table


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    if x.shape[-1] % 2:
        raise ValueError("apply_rope expects an even last dimension")
    n, d = x.shape[-2:]
    idx = np.arange(n) if positions is None else np.asarray(positions)
    freqs = base ** (-(np.arange(d // 2) * 2) / d)
    ang = idx[:, None] * freqs[None, :]
    cos = np.cos(ang).astype(x.dtype)
    sin = np.sin(ang).astype(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    result = np.zeros_like(x)
    result[..., 0::2] = even * cos - odd * sin
    result[..., 1::2] = odd * cos + even * sin
    return result
