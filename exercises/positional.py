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
    # TODO: implement sinusoidal_encoding: sin on even columns, cos on odd columns, one frequency per pair
    raise NotImplementedError('implement sinusoidal_encoding: sin on even columns, cos on odd columns, one frequency per pair')


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
    # TODO: implement apply_rope: rotate interleaved pairs (2i, 2i+1) by p * base**(-2i/d)
    raise NotImplementedError('implement apply_rope: rotate interleaved pairs (2i, 2i+1) by p * base**(-2i/d)')
