"""Correct positional encodings the long way: the sinusoidal table filled by two nested Python loops
(the paper's formula verbatim), RoPE with complex numbers (x[2i] + 1j*x[2i+1]) * exp(1j*theta), as
RoFormer's derivation and LLaMA's `torch.polar` code do it.
"""
import math

import numpy as np

EXPECTED = {"exercise": "positional", "mistake": None}


def sinusoidal_encoding(seq_len, d_model):
    pe = np.zeros((seq_len, d_model))
    for pos in range(seq_len):
        for i in range(0, d_model, 2):
            angle = pos / math.pow(10000.0, i / d_model)
            pe[pos, i] = math.sin(angle)
            if i + 1 < d_model:
                pe[pos, i + 1] = math.cos(angle)
    return pe


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2 == 1:
        raise ValueError("RoPE needs an even number of features")
    pos = np.arange(n) if positions is None else np.asarray(positions)
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
    rotor = np.exp(1j * np.outer(pos.astype(np.float64), inv_freq))       # (n, d/2), unit complex numbers
    z = (x[..., 0::2].astype(np.float64) + 1j * x[..., 1::2].astype(np.float64)) * rotor
    out = np.empty(x.shape, dtype=x.dtype)
    out[..., 0::2] = z.real
    out[..., 1::2] = z.imag
    return out
