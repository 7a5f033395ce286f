"""Held-out #2: RoPE from a repository that gathers the pairs interleaved (``x[..., ::2]``, ``x[..., 1::2]``) but
builds ``rotate_half`` by concatenating ``(-x2, x1)`` and repeats the frequencies as ``cat(freqs, freqs)``: two
conventions mixed, so the rotated features do not pair up."""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "rope_rotate_half"}


def sinusoidal_encoding(seq_len, d_model):
    pos = np.arange(seq_len)[:, None]
    i = np.arange(d_model)[None, :]
    angle = pos / np.power(10000.0, (2 * (i // 2)) / d_model)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2:]
    if d % 2:
        raise ValueError("RoPE requires an even head dimension")
    t = np.arange(n, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.einsum("t,f->tf", t, inv_freq)
    emb = np.concatenate((freqs, freqs), axis=-1)
    cos, sin = np.cos(emb).astype(x.dtype), np.sin(emb).astype(x.dtype)
    x1, x2 = x[..., ::2], x[..., 1::2]
    rotated = np.concatenate((-x2, x1), axis=-1)
    return x * cos + rotated * sin
