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
    ### BEGIN SOLUTION implement elu_feature_map: x + 1 for positive x, exp(x) elsewhere
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    # anchor: elu_feature_map.return
    return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))  # exp only of x <= 0: no overflow for large x
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement linear_attention: sums of phi(k_j) v_j^T and of phi(k_j), then normalise
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    dtype = np.result_type(Q, K, V, 1.0)       # float32 stays float32, ints become float64
    n_q, n_k = Q.shape[-2], K.shape[-2]
    if causal and n_q != n_k:
        raise ValueError(f"causal linear attention needs as many queries as keys, got n_q={n_q} and n_k={n_k}")
    # anchor: linear_attention.phi_q
    phi_q = elu_feature_map(Q.astype(dtype, copy=False))  # (..., n_q, d_k)
    # anchor: linear_attention.phi_k
    phi_k = elu_feature_map(K.astype(dtype, copy=False))  # (..., n_k, d_k)
    V = V.astype(dtype, copy=False)                        # (..., n_k, d_v)
    # anchor: linear_attention.if_causal
    if not causal:
        S = np.swapaxes(phi_k, -1, -2) @ V                 # (..., d_k, n_k) @ (..., n_k, d_v) -> (..., d_k, d_v)
        z = np.sum(phi_k, axis=-2)[..., :, None]           # (..., d_k) -> (..., d_k, 1)
        numerator = phi_q @ S                              # (..., n_q, d_k) @ (..., d_k, d_v) -> (..., n_q, d_v)
        denominator = phi_q @ z                            # (..., n_q, d_k) @ (..., d_k, 1) -> (..., n_q, 1)
    else:
        # running sums over j <= i: one (d_k, d_v) state per position, never an (n, n) array
        S = phi_k[..., :, :, None] * V[..., :, None, :]    # (..., n, d_k, 1) * (..., n, 1, d_v) -> (..., n, d_k, d_v)
        # anchor: linear_attention.s
        S = np.cumsum(S, axis=-3, out=S)                   # S[i] = sum_{j <= i} phi(k_j) v_j^T, in place
        # anchor: linear_attention.z
        z = np.cumsum(phi_k, axis=-2)                      # (..., n, d_k): z[i] = sum_{j <= i} phi(k_j)
        numerator = (phi_q[..., :, None, :] @ S)[..., 0, :]  # (..., n, 1, d_k) @ (..., n, d_k, d_v) -> (..., n, d_v)
        denominator = np.sum(phi_q * z, axis=-1, keepdims=True)  # (..., n, d_k) -> (..., n, 1)
    # anchor: linear_attention.return
    return numerator / (denominator + eps)                 # (..., n_q, d_v)
    ### END SOLUTION
