"""Exercise ``positional``: sinusoidal positional encoding and rotary embeddings (RoPE).

Self-attention is permutation equivariant, so order must be injected explicitly.
Reading: "Attention Is All You Need" (2017), section 3.5 (sinusoidal); "RoFormer: Enhanced Transformer with
Rotary Position Embedding" (2021).
"""
import numpy as np


def sinusoidal_encoding(seq_len, d_model):
    """The original Transformer's fixed positional encoding.

    ``PE[p, 2i] = sin(p / 10000**(2i/d_model))`` and ``PE[p, 2i+1] = cos(same angle)``.

    Parameters
    ----------
    seq_len : int
        Number of positions ``p = 0 .. seq_len-1``.
    d_model : int
        Encoding width; may be odd (the last column is then a sin column).

    Returns
    -------
    numpy.ndarray of float64, shape (seq_len, d_model)
    """
    ### BEGIN SOLUTION implement sinusoidal_encoding: sin on even columns, cos on odd columns, one frequency per pair
    positions = np.arange(seq_len, dtype=np.float64)[:, None]  # (seq_len, 1)
    # anchor: sinusoidal_encoding.two_i
    two_i = np.arange(0, d_model, 2, dtype=np.float64)          # (ceil(d_model/2),): 0, 2, 4, ...
    # anchor: sinusoidal_encoding.angles
    angles = positions / 10000.0 ** (two_i / d_model)           # (seq_len, ceil(d_model/2))
    encoding = np.empty((seq_len, d_model))
    # anchor: sinusoidal_encoding.encoding
    encoding[:, 0::2] = np.sin(angles)
    # anchor: sinusoidal_encoding.encoding_cos
    encoding[:, 1::2] = np.cos(angles[:, : d_model // 2])       # odd d_model: one fewer cos column
    # anchor: sinusoidal_encoding.return
    return encoding
    ### END SOLUTION


def apply_rope(x, positions=None, base=10000.0):
    """Rotary positional embedding: rotate each pair of features by a position-dependent angle.

    The pair ``(x[..., 2i], x[..., 2i+1])`` at position ``p`` is rotated by
    ``theta = p * base**(-2i/d)``: ``(x0*cos - x1*sin, x0*sin + x1*cos)``. Dot products of
    rotated queries and keys then depend only on their relative position.

    Parameters
    ----------
    x : array_like, shape (..., n, d)
        Queries or keys; ``d`` must be even.
    positions : array_like of int, shape (n,), optional
        Position of each row; default ``arange(n)``.
    base : float, optional
        Frequency base (10000 in RoFormer and LLaMA).

    Returns
    -------
    numpy.ndarray, shape (..., n, d)
        Same float dtype as ``x``; ``x`` is not modified.

    Raises
    ------
    ValueError
        If ``d`` is odd.
    """
    ### BEGIN SOLUTION implement apply_rope: rotate interleaved pairs (2i, 2i+1) by p * base**(-2i/d)
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    n, d = x.shape[-2], x.shape[-1]
    if d % 2:
        raise ValueError(f"apply_rope needs an even feature size, got d={d}")
    # anchor: apply_rope.if_positions
    if positions is None:
        positions = np.arange(n)
    positions = np.asarray(positions, dtype=np.float64)                  # (n,)
    # anchor: apply_rope.frequencies
    frequencies = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)    # (d/2,)
    # anchor: apply_rope.theta
    theta = positions[:, None] * frequencies[None, :]                    # (n, 1) * (1, d/2) -> (n, d/2)
    # anchor: apply_rope.cos
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    # anchor: apply_rope.x_even
    x_even, x_odd = x[..., 0::2], x[..., 1::2]                          # (..., n, d/2) each
    # anchor: apply_rope.rotated_empty_like
    rotated = np.empty_like(x)
    # anchor: apply_rope.rotated
    rotated[..., 0::2] = x_even * cos - x_odd * sin
    # anchor: apply_rope.odd
    rotated[..., 1::2] = x_even * sin + x_odd * cos
    # anchor: apply_rope.return
    return rotated
    ### END SOLUTION
