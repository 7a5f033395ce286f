"""Exercise ``attention_backward``: the gradients of scaled dot-product attention.

Forward (per batch entry), with s = 1/sqrt(d_k):

    S = s Q K^T   (n_q, n_k)      P = softmax(S) over the keys      O = P V   (n_q, d_v)

Backward, given dO = dL/dO of the same shape as O:

    dV = P^T dO                    dP = dO V^T
    dS = P * (dP - rowsum(dP * P)) (the softmax's backward: its Jacobian is diag(p) - p p^T)
    dQ = s dS K                    dK = s dS^T Q

A masked key has P = 0, so its dS is 0 and it passes no gradient; a query with no allowed
key has a zero row of P and gets zero gradient. The scale s matters for training: without
it the scores of d_k-dimensional vectors have a spread near sqrt(d_k), the softmax
saturates (one weight near 1), and dS, which is multiplied by P (1 - P)-like factors,
becomes tiny.
Reading: "Attention Is All You Need" (2017), section 3.2.1; "Deep Learning" (Goodfellow, Bengio and
Courville, 2016), section 6.5 on back-propagation.
"""
import math

import numpy as np

from .attention import scaled_dot_product_attention


def softmax_backward(y, dy, axis=-1):
    """Gradient of a loss with respect to the input ``x`` of ``y = softmax(x, axis)``.

    Parameters
    ----------
    y : array_like, shape (...)
        The softmax's output.
    dy : array_like, shape (...) (same as ``y``)
        The gradient of the loss with respect to ``y``.
    axis : int, optional
        The axis the softmax normalised (default: the last one).

    Returns
    -------
    numpy.ndarray, shape (...) (same as ``y``)
        ``dx = y * (dy - sum(dy * y, axis))``. Float dtype of the inputs (float64 for
        integer or list input).

    Raises
    ------
    ValueError
        If ``y`` and ``dy`` have different shapes.
    """
    ### BEGIN SOLUTION implement softmax_backward: y times (dy minus the y-weighted sum of dy along axis)
    y, dy = np.asarray(y), np.asarray(dy)
    if y.shape != dy.shape:
        raise ValueError(f"y has shape {y.shape} but dy has shape {dy.shape}; they must be equal")
    dtype = np.result_type(y, dy, 1.0)                         # float32 stays float32, ints become float64
    y, dy = y.astype(dtype, copy=False), dy.astype(dtype, copy=False)
    # anchor: softmax_backward.weighted
    weighted = np.sum(dy * y, axis=axis, keepdims=True)       # (..., 1, ...) along axis: sum_k dy_k y_k
    # anchor: softmax_backward.return
    return y * (dy - weighted)                                # (...): y_i (dy_i - sum_k dy_k y_k)
    ### END SOLUTION


def attention_backward(Q, K, V, dO, mask=None):
    """Gradients of ``sum(dO * scaled_dot_product_attention(Q, K, V, mask)[0])``.

    Parameters
    ----------
    Q : array_like, shape (..., n_q, d_k)
    K : array_like, shape (..., n_k, d_k)
    V : array_like, shape (..., n_k, d_v)
    dO : array_like, shape (..., n_q, d_v)
        The gradient of the loss with respect to the attention's output.
    mask : array_like of bool, broadcastable to shape (..., n_q, n_k), optional
        True where a query may attend to a key (as in the forward pass).

    Returns
    -------
    dQ : numpy.ndarray, shape (..., n_q, d_k)
    dK : numpy.ndarray, shape (..., n_k, d_k)
    dV : numpy.ndarray, shape (..., n_k, d_v)
        The shapes of ``Q``, ``K`` and ``V``; a query with no allowed key contributes zero
        gradient. Float dtype of the inputs (float64 for integer or list input).

    Raises
    ------
    ValueError
        If ``dO`` does not have the shape of the attention's output.
    """
    ### BEGIN SOLUTION implement attention_backward: recompute the weights, back through P V, softmax, scaling
    Q, K, V, dO = np.asarray(Q), np.asarray(K), np.asarray(V), np.asarray(dO)
    dtype = np.result_type(Q, K, V, dO, 1.0)
    Q, K, V, dO = (a.astype(dtype, copy=False) for a in (Q, K, V, dO))
    *batch, n_q, d_k = Q.shape
    d_v = V.shape[-1]
    if dO.shape != (*batch, n_q, d_v):
        raise ValueError(f"dO has shape {dO.shape}; expected the output's shape {(*batch, n_q, d_v)}")
    scale = 1.0 / math.sqrt(d_k)
    # anchor: attention_backward.weights
    _, P = scaled_dot_product_attention(Q, K, V, mask)   # (..., n_q, n_k), zero where masked
    # anchor: attention_backward.dv
    dV = np.swapaxes(P, -1, -2) @ dO                      # (..., n_k, n_q) @ (..., n_q, d_v) -> (..., n_k, d_v)
    dP = dO @ np.swapaxes(V, -1, -2)                      # (..., n_q, d_v) @ (..., d_v, n_k) -> (..., n_q, n_k)
    # anchor: attention_backward.ds
    dS = softmax_backward(P, dP, axis=-1)                 # (..., n_q, n_k): gradient of the scaled scores
    # anchor: attention_backward.dq
    dQ = (dS @ K) * scale                                 # (..., n_q, n_k) @ (..., n_k, d_k) -> (..., n_q, d_k)
    # anchor: attention_backward.dk
    dK = (np.swapaxes(dS, -1, -2) @ Q) * scale            # (..., n_k, n_q) @ (..., n_q, d_k) -> (..., n_k, d_k)
    # anchor: attention_backward.return
    return dQ, dK, dV
    ### END SOLUTION
