"""Exercise ``cross_attention``: one sequence asks, another sequence answers.

    CrossAttention(X, Z) = softmax((X W_Q)(Z W_K)^T / sqrt(d_k)) (Z W_V)

In self-attention the queries, keys and values all come from the same sequence. In
cross-attention (an encoder-decoder Transformer's second attention layer) the queries come
from one sequence X (the decoder's tokens) and the keys and values from another, Z (the
encoder's output), which may have a different length and width. A padded Z carries a key
padding mask so that its padding tokens get no weight.
Reading: "Attention Is All You Need" (2017), section 3.2.3.
"""
import numpy as np

from .attention import scaled_dot_product_attention


def cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=None):
    """Attention of the tokens of ``X`` over the tokens of ``Z``.

    Parameters
    ----------
    X : array_like, shape (..., n_q, d_x)
        The sequence that asks (one query per token).
    Z : array_like, shape (..., n_kv, d_z)
        The sequence that is attended to (one key and one value per token); the same
        leading (batch) dimensions as ``X``.
    W_Q : array_like, shape (d_x, d_k)
        Query projection (applied to ``X``).
    W_K : array_like, shape (d_z, d_k)
        Key projection (applied to ``Z``).
    W_V : array_like, shape (d_z, d_v)
        Value projection (applied to ``Z``).
    key_padding_mask : array_like of bool, shape (..., n_kv), optional
        True where the token of ``Z`` is real, False where it is padding; the same for
        every query.

    Returns
    -------
    output : numpy.ndarray, shape (..., n_q, d_v)
        Each query's weighted sum of the values of ``Z``.
    weights : numpy.ndarray, shape (..., n_q, n_kv)
        Each row sums to 1 over the real tokens of ``Z``; a query with no real token to
        attend to gets zero weights and a zero output.

    Raises
    ------
    ValueError
        If the leading dimensions of ``X`` and ``Z`` differ, or ``key_padding_mask`` does
        not have the shape ``Z.shape[:-1]``.
    """
    ### BEGIN SOLUTION implement cross_attention: queries from X, keys and values from Z, padding masked
    X, Z = np.asarray(X), np.asarray(Z)
    *batch_x, n_q, d_x = X.shape
    *batch_z, n_kv, d_z = Z.shape
    if batch_x != batch_z:
        raise ValueError(f"X has leading dimensions {tuple(batch_x)} but Z has {tuple(batch_z)}; they must be equal")
    # anchor: cross_attention.q
    Q = X @ np.asarray(W_Q)  # (..., n_q, d_x) @ (d_x, d_k) -> (..., n_q, d_k)
    # anchor: cross_attention.k
    K = Z @ np.asarray(W_K)  # (..., n_kv, d_z) @ (d_z, d_k) -> (..., n_kv, d_k)
    # anchor: cross_attention.v
    V = Z @ np.asarray(W_V)  # (..., n_kv, d_z) @ (d_z, d_v) -> (..., n_kv, d_v)
    mask = None
    if key_padding_mask is not None:
        key_padding_mask = np.asarray(key_padding_mask, dtype=bool)
        if key_padding_mask.shape != (*batch_z, n_kv):
            raise ValueError(f"key_padding_mask has shape {key_padding_mask.shape}; expected {(*batch_z, n_kv)} "
                             "(one entry per token of Z)")
        # anchor: cross_attention.mask
        mask = key_padding_mask[..., None, :]  # (..., 1, n_kv): the same keys for every query
    # anchor: cross_attention.return
    return scaled_dot_product_attention(Q, K, V, mask)  # (..., n_q, d_v), (..., n_q, n_kv)
    ### END SOLUTION
