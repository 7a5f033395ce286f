"""Exercise ``masking``: causal and padding masks, applied before the softmax.

Convention everywhere in the kit: a boolean mask is ``True`` where a query MAY attend
to a key; a forbidden key gets -inf before the softmax (so its weight is exactly 0).
Reading: "Attention Is All You Need" (2017), section 3.2.3 (the decoder's causal mask).
"""
import numpy as np


def causal_mask(n):
    """Lower-triangular mask: query ``i`` may attend key ``j`` when ``j <= i``.

    Parameters
    ----------
    n : int
        Sequence length.

    Returns
    -------
    numpy.ndarray of bool, shape (n, n)
        ``mask[i, j]`` is True where ``j <= i``.
    """
    ### BEGIN SOLUTION implement causal_mask: True on and below the diagonal
    # anchor: causal_mask.return
    return np.tril(np.ones((n, n), dtype=bool))
    ### END SOLUTION


def padding_mask(lengths, max_len):
    """Mask out the padding at the end of each sequence of a batch.

    Parameters
    ----------
    lengths : array_like of int, shape (batch,)
        The true length of each sequence.
    max_len : int
        The padded length.

    Returns
    -------
    numpy.ndarray of bool, shape (batch, max_len)
        ``mask[b, t]`` is True where ``t < lengths[b]``.
    """
    ### BEGIN SOLUTION implement padding_mask: True at the positions before each sequence's length
    lengths = np.asarray(lengths)
    positions = np.arange(max_len)                 # (max_len,)
    # anchor: padding_mask.return
    return positions[None, :] < lengths[:, None]   # (1, max_len) < (batch, 1) -> (batch, max_len)
    ### END SOLUTION


def apply_mask(scores, mask):
    """Put ``-inf`` where the mask forbids attention, so the softmax gives those keys weight 0.

    Parameters
    ----------
    scores : array_like, shape (..., n_q, n_k)
        Attention scores (before the softmax).
    mask : array_like of bool, broadcastable to shape (..., n_q, n_k)
        True where a query may attend to a key.

    Returns
    -------
    numpy.ndarray, shape (..., n_q, n_k)
        A copy of ``scores`` with ``-inf`` where ``mask`` is False; same float dtype as
        ``scores`` (float64 for integer input). ``scores`` is not modified.
    """
    ### BEGIN SOLUTION implement apply_mask: a copy of scores with -inf where mask is False
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    # anchor: apply_mask.return
    return np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    ### END SOLUTION
