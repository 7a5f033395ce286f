"""Exercise ``multihead``: split the model dimension into heads, attend per head, merge.

    MultiHead(X) = Concat(head_1, ..., head_h) W_O,  head_i = Attention(X W_Q^i, X W_K^i, X W_V^i)

Head ``h`` owns columns ``[h*d_head:(h+1)*d_head]`` of the packed projections, so a
two-head layer given as separate per-head matrices is reproduced by packing them
column-wise. Reading: "Attention Is All You Need" (2017), section 3.2.2.
"""
import numpy as np

from .attention import scaled_dot_product_attention


def split_heads(X, n_heads):
    """Split the last axis into heads and move the head axis before the sequence axis.

    Parameters
    ----------
    X : array_like, shape (..., n, d_model)
    n_heads : int
        Must divide ``d_model``.

    Returns
    -------
    numpy.ndarray, shape (..., n_heads, n, d_head)
        ``d_head = d_model // n_heads``; head ``h`` holds columns ``[h*d_head:(h+1)*d_head]``.

    Raises
    ------
    ValueError
        If ``d_model`` is not divisible by ``n_heads``.
    """
    # TODO: implement split_heads: reshape the last axis to (n_heads, d_head), then put heads before tokens
    raise NotImplementedError('implement split_heads: reshape the last axis to (n_heads, d_head), then put heads before tokens')


def merge_heads(X):
    """Inverse of :func:`split_heads`: concatenate the heads along the last axis.

    Parameters
    ----------
    X : array_like, shape (..., n_heads, n, d_head)

    Returns
    -------
    numpy.ndarray, shape (..., n, n_heads * d_head)
    """
    # TODO: implement merge_heads: swap tokens back before heads, then flatten (n_heads, d_head)
    raise NotImplementedError('implement merge_heads: swap tokens back before heads, then flatten (n_heads, d_head)')


def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    """Multi-head self-attention with packed projections.

    Parameters
    ----------
    X : array_like, shape (..., n, d_model)
    W_Q, W_K, W_V, W_O : array_like, shape (d_model, d_model)
        Packed projections; head ``h`` uses columns ``[h*d_head:(h+1)*d_head]`` of
        ``W_Q``, ``W_K`` and ``W_V``. ``W_O`` maps the concatenated heads back.
    n_heads : int
        Number of heads; must divide ``d_model``. Each head scales by ``1/sqrt(d_head)``.
    mask : array_like of bool, broadcastable to shape (..., n, n), optional
        True where a query may attend to a key; the same mask for every head.

    Returns
    -------
    output : numpy.ndarray, shape (..., n, d_model)
    weights : numpy.ndarray, shape (..., n_heads, n, n)
    """
    # TODO: implement multi_head_self_attention: project, split into heads, attend per head, merge, then W_O
    raise NotImplementedError('implement multi_head_self_attention: project, split into heads, attend per head, merge, then W_O')
