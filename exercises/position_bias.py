"""Exercise ``position_bias``: ALiBi biases, sliding-window masks, and attention with a bias.

Instead of adding position vectors to the tokens, ALiBi adds to every score a penalty that
grows linearly with the distance between query and key, ``-m_h * |i - j|``, with one fixed
slope ``m_h`` per head (a geometric sequence: some heads look far, some near). A sliding
window (Longformer, Mistral) lets each query see only the ``window`` nearest keys, so the
cost per query no longer grows with the sequence.
Reading: "Train Short, Test Long: Attention with Linear Biases Enables Input Length
Extrapolation" (2021); "Longformer: The Long-Document Transformer" (2020).
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax


def alibi_slopes(n_heads):
    """The fixed ALiBi slope of every head.

    For a power of two ``n_heads`` the slopes are ``2**(-8*(h+1)/n_heads)``, h = 0..n_heads-1
    (8 heads: 1/2, 1/4, ..., 1/256). Otherwise: the slopes of the largest power of two
    ``m < n_heads``, followed by the first ``n_heads - m`` slopes of ``2m`` heads taken at
    indices 0, 2, 4, ... (those fall between the first ones).

    Parameters
    ----------
    n_heads : int
        At least 1.

    Returns
    -------
    numpy.ndarray of float64, shape (n_heads,)

    Raises
    ------
    ValueError
        If ``n_heads < 1``.
    """
    # TODO: implement alibi_slopes: geometric for a power of two, else filled in from 2x heads
    raise NotImplementedError('implement alibi_slopes: geometric for a power of two, else filled in from 2x heads')


def alibi_bias(n_heads, n_q, n_k=None):
    """The ALiBi bias of every head: ``-slope[h] * distance`` between query and key.

    The ``n_q`` queries are the last ``n_q`` positions of the ``n_k`` keys (as when decoding
    with a cache), so query ``i`` sits at position ``i + n_k - n_q``.

    Parameters
    ----------
    n_heads : int
    n_q : int
        Number of queries.
    n_k : int, optional
        Number of keys (default ``n_q``).

    Returns
    -------
    numpy.ndarray of float64, shape (n_heads, n_q, n_k)
        ``bias[h, i, j] = -alibi_slopes(n_heads)[h] * |(i + n_k - n_q) - j|``.
    """
    # TODO: implement alibi_bias: minus each head's slope times the query-key distance
    raise NotImplementedError("implement alibi_bias: minus each head's slope times the query-key distance")


def sliding_window_mask(n, window, causal=True):
    """Each query may attend only to the keys within ``window`` positions of itself.

    Parameters
    ----------
    n : int
        Sequence length.
    window : int
        At least 1. Causal: query ``i`` sees keys ``i - window + 1 .. i`` (``window`` keys,
        itself included). Not causal: keys with ``|i - j| < window``.
    causal : bool, optional
        Default True.

    Returns
    -------
    numpy.ndarray of bool, shape (n, n)
        Causal: True where ``i - window < j <= i``; otherwise True where ``|i - j| < window``.
        ``window >= n`` with ``causal=True`` gives the causal mask.

    Raises
    ------
    ValueError
        If ``window < 1``.
    """
    # TODO: implement sliding_window_mask: keys under window positions away (no future if causal)
    raise NotImplementedError('implement sliding_window_mask: keys under window positions away (no future if causal)')


def _broadcasts_to(shape, target):
    """True when an array of ``shape`` broadcasts to ``target`` without enlarging it."""
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


def biased_attention(Q, K, V, bias=None, mask=None):
    """softmax(Q K^T / sqrt(d_k) + bias, masked) V.

    Parameters
    ----------
    Q : array_like, shape (..., n_q, d_k)
    K : array_like, shape (..., n_k, d_k)
    V : array_like, shape (..., n_k, d_v)
        The same leading dimensions as ``Q`` (for ALiBi: ``(..., n_heads, n, d)``).
    bias : array_like, broadcastable to shape (..., n_q, n_k), optional
        Added to the scores after the scaling by ``1/sqrt(d_k)`` (cast to the scores' dtype).
    mask : array_like of bool, broadcastable to shape (..., n_q, n_k), optional
        True where a query may attend to a key; a masked key gets weight 0 whatever its bias.

    Returns
    -------
    output : numpy.ndarray, shape (..., n_q, d_v)
    weights : numpy.ndarray, shape (..., n_q, n_k)
        Rows sum to 1; a query with no allowed key gets zero weights and a zero output.
        The dtype of ``Q``, ``K``, ``V`` (float64 for integer input).

    Raises
    ------
    ValueError
        If ``bias`` is not broadcastable to the shape of the scores.
    """
    # TODO: implement biased_attention: scaled scores plus bias, mask, softmax, weighted sum of V
    raise NotImplementedError('implement biased_attention: scaled scores plus bias, mask, softmax, weighted sum of V')
