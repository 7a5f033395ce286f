"""Held-out: RoPE through complex numbers (pairs as a + ib multiplied by e^{i theta}), the base hard-coded to 10000
whatever ``base`` says. Style: LLaMA's ``precompute_freqs_cis`` ported to numpy."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "setting_ignored"}


def sinusoidal_encoding(seq_len, d_model):
    pos = np.arange(seq_len)[:, None]
    i = np.arange(d_model)[None, :]
    angle = pos / np.power(10000.0, (2 * (i // 2)) / d_model)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind == "f" else np.float64
    x = x.astype(dtype)
    n, d = x.shape[-2], x.shape[-1]
    if d % 2 != 0:
        raise ValueError(f"odd d={d}")
    t = np.arange(n) if positions is None else np.asarray(positions)
    freqs = 1.0 / (10000.0 ** (np.arange(0, d, 2)[: d // 2] / d))
    cis = np.exp(1j * np.outer(t, freqs))
    pairs = x[..., 0::2] + 1j * x[..., 1::2]
    rotated = pairs * cis
    out = np.empty(x.shape, dtype=dtype)
    out[..., 0::2], out[..., 1::2] = rotated.real, rotated.imag
    return out
