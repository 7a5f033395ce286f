"""Exercise ``linear_attention``: attention in time and memory linear in the sequence length.

Softmax attention weighs value j for query i by ``exp(q_i . k_j)``, which forces the
(n_q, n_k) matrix into existence. Replacing it by a product of feature maps
``phi(q_i) . phi(k_j)`` (phi(x) = elu(x) + 1 keeps every weight positive) lets the sums be
regrouped:

    out_i = sum_j (phi(q_i) . phi(k_j)) v_j / sum_j phi(q_i) . phi(k_j)
          = phi(q_i)^T S / phi(q_i)^T z,   S = sum_j phi(k_j) v_j^T (d_k, d_v),  z = sum_j phi(k_j) (d_k,)

S and z are computed once, so the cost is O(n d_k d_v) instead of O(n^2 d). The causal form
keeps running sums over j <= i: a recurrent network whose state is (S_i, z_i).
Reading: "Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention" (2020).
"""
import numpy as np


def elu_feature_map(x):
    """phi(x) = elu(x) + 1: ``x + 1`` where ``x > 0``, ``exp(x)`` elsewhere (always positive).

    Parameters
    ----------
    x : array_like, shape (...)

    Returns
    -------
    numpy.ndarray, shape (...)
        Same float dtype as ``x`` (float64 for integer or list input); ``x`` is not modified.
    """
    # TODO: implement elu_feature_map: x + 1 for positive x, exp(x) elsewhere
    raise NotImplementedError('implement elu_feature_map: x + 1 for positive x, exp(x) elsewhere')


def linear_attention(Q, K, V, causal=False, eps=1e-6):
    """Linear attention with the feature map phi = elu + 1.

    Parameters
    ----------
    Q : array_like, shape (..., n_q, d_k)
    K : array_like, shape (..., n_k, d_k)
    V : array_like, shape (..., n_k, d_v)
        The same leading dimensions as ``Q``.
    causal : bool, optional
        If True, query ``i`` sums only over keys ``j <= i`` (requires ``n_q == n_k``).
    eps : float, optional
        Added to every normaliser (it is positive already; eps guards its rounding).

    Returns
    -------
    numpy.ndarray, shape (..., n_q, d_v)
        ``out_i = phi(q_i)^T S / (phi(q_i)^T z + eps)`` with ``S = sum_j phi(k_j) v_j^T``
        and ``z = sum_j phi(k_j)`` (over ``j <= i`` when causal). Never builds an
        (n_q, n_k) array. Same float dtype as the inputs (float64 for integers).

    Raises
    ------
    ValueError
        If ``causal`` and ``n_q != n_k``.
    """
    # TODO: implement linear_attention: sums of phi(k_j) v_j^T and of phi(k_j), then normalise
    raise NotImplementedError('implement linear_attention: sums of phi(k_j) v_j^T and of phi(k_j), then normalise')
