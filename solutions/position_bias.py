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
    ### BEGIN SOLUTION implement alibi_slopes: geometric for a power of two, else filled in from 2x heads
    if n_heads < 1:
        raise ValueError(f"n_heads must be at least 1, got {n_heads}")

    def power_of_two_slopes(n):
        # anchor: power_of_two_slopes.return
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)  # (n,): 2**(-8/n), 2**(-16/n), ..., 2**-8

    # anchor: alibi_slopes.if_n_heads
    if n_heads & (n_heads - 1) == 0:
        return power_of_two_slopes(n_heads)
    m = 2 ** int(math.floor(math.log2(n_heads)))       # largest power of two below n_heads
    # anchor: alibi_slopes.extra
    extra = power_of_two_slopes(2 * m)[0::2][:n_heads - m]
    return np.concatenate([power_of_two_slopes(m), extra])  # (m,) + (n_heads - m,) -> (n_heads,)
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement alibi_bias: minus each head's slope times the query-key distance
    n_k = n_q if n_k is None else n_k
    slopes = alibi_slopes(n_heads)                        # (nh,)
    # anchor: alibi_bias.query_positions
    query_positions = np.arange(n_q) + (n_k - n_q)        # (n_q,)
    key_positions = np.arange(n_k)                        # (n_k,)
    # anchor: alibi_bias.distance
    distance = np.abs(query_positions[:, None] - key_positions[None, :])  # (n_q, 1) - (1, n_k) -> (n_q, n_k)
    # anchor: alibi_bias.return
    return -slopes[:, None, None] * distance              # (nh, 1, 1) * (n_q, n_k) -> (nh, n_q, n_k)
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement sliding_window_mask: keys under window positions away (no future if causal)
    if window < 1:
        raise ValueError(f"window must be at least 1, got {window}")
    offset = np.arange(n)[:, None] - np.arange(n)[None, :]  # (n, 1) - (1, n) -> (n, n): i - j
    if causal:
        # anchor: sliding_window_mask.return
        return (offset >= 0) & (offset < window)
    # anchor: sliding_window_mask.return_abs
    return np.abs(offset) < window
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement biased_attention: scaled scores plus bias, mask, softmax, weighted sum of V
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2)          # (..., n_q, d_k) @ (..., d_k, n_k) -> (..., n_q, n_k)
    # anchor: biased_attention.scores
    scores = scores * (1.0 / math.sqrt(d_k))     # a Python float keeps float32 float32
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    if bias is not None:
        bias = np.asarray(bias)
        if not _broadcasts_to(bias.shape, scores.shape):
            raise ValueError(f"bias of shape {bias.shape} does not broadcast to the scores' shape {scores.shape}")
        # anchor: biased_attention.scores_astype
        scores = scores + bias.astype(scores.dtype, copy=False)  # after the scaling: the bias is not divided
    if mask is not None:
        # anchor: biased_attention.scores_apply_mask
        scores = apply_mask(scores, mask)        # forbidden keys -> -inf, whatever their bias
    # anchor: biased_attention.weights
    weights = softmax(scores, axis=-1)           # (..., n_q, n_k)
    output = weights @ V                         # (..., n_q, n_k) @ (..., n_k, d_v) -> (..., n_q, d_v)
    # anchor: biased_attention.return
    return output, weights
    ### END SOLUTION
