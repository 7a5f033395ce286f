"""RoPE in the GPT-NeoX / Hugging Face LLaMA convention: rotate_half(x) = concat(-x2, x1) of the two
halves, cos/sin tables with the frequencies concatenated twice, built in float32 (as the HF code's
inv_freq buffer is); sinusoidal table correct.

Bug: rotate_half pairs feature i with feature i + d/2 instead of interleaved pairs (2i, 2i+1).
"""
import numpy as np

EXPECTED = {"exercise": "positional", "mistake": "rope_rotate_half"}


def sinusoidal_encoding(seq_len, d_model):
    pos = np.arange(seq_len)[:, np.newaxis]
    dims = np.arange(d_model)[np.newaxis, :]
    angle_rads = pos / np.power(10000, (2 * (dims // 2)) / np.float64(d_model))
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return np.concatenate((-x2, x1), axis=-1)


def apply_rope(x, positions=None, base=10000.0):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, dim = x.shape[-2:]
    if dim % 2:
        raise ValueError("dim must be even")
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float32) / dim))
    t = np.arange(n, dtype=np.float32) if positions is None else np.asarray(positions, dtype=np.float32)
    freqs = np.outer(t, inv_freq).astype(np.float32)
    emb = np.concatenate((freqs, freqs), axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    return (x * cos + rotate_half(x) * sin).astype(x.dtype)
