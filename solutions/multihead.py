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
    ### BEGIN SOLUTION implement split_heads: reshape the last axis to (n_heads, d_head), then put heads before tokens
    X = np.asarray(X)
    # anchor: split_heads.batch
    *batch, n, d_model = X.shape
    if n_heads <= 0 or d_model % n_heads != 0:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    d_head = d_model // n_heads
    # anchor: split_heads.per_head
    per_head = X.reshape(*batch, n, n_heads, d_head)  # (..., n, nh, hs)
    # anchor: split_heads.return
    return np.swapaxes(per_head, -3, -2)              # (..., nh, n, hs)
    ### END SOLUTION


def merge_heads(X):
    """Inverse of :func:`split_heads`: concatenate the heads along the last axis.

    Parameters
    ----------
    X : array_like, shape (..., n_heads, n, d_head)

    Returns
    -------
    numpy.ndarray, shape (..., n, n_heads * d_head)
    """
    ### BEGIN SOLUTION implement merge_heads: swap tokens back before heads, then flatten (n_heads, d_head)
    X = np.asarray(X)
    *batch, n_heads, n, d_head = X.shape
    # anchor: merge_heads.per_token
    per_token = np.swapaxes(X, -3, -2)                      # (..., n, nh, hs)
    return per_token.reshape(*batch, n, n_heads * d_head)  # (..., n, nh*hs)
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement multi_head_self_attention: project, split into heads, attend per head, merge, then W_O
    X = np.asarray(X)
    Q = split_heads(X @ np.asarray(W_Q), n_heads)  # (..., n, d_model) -> (..., nh, n, hs)
    K = split_heads(X @ np.asarray(W_K), n_heads)  # (..., nh, n, hs)
    V = split_heads(X @ np.asarray(W_V), n_heads)  # (..., nh, n, hs)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)         # broadcastable to (..., n, n)
        if mask.ndim >= 2:
            # anchor: multi_head_self_attention.mask
            mask = np.expand_dims(mask, -3)         # (..., 1, n, n): one mask, every head
    # anchor: multi_head_self_attention.heads
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)  # (..., nh, n, hs), (..., nh, n, n)
    concat = merge_heads(heads)                    # (..., n, nh*hs) = (..., n, d_model)
    # anchor: multi_head_self_attention.return
    return concat @ np.asarray(W_O), weights       # (..., n, d_model) @ (d_model, d_model) -> (..., n, d_model)
    ### END SOLUTION
