"""Exercise ``gqa``: grouped-query attention, and the key/value cache it shrinks.

During decoding every layer caches the keys and values of every earlier token, and that
cache, not the weights, limits the batch size and the context length. Grouped-query
attention keeps ``n_heads`` query heads but only ``n_kv_heads`` key/value heads: each group
of ``n_heads // n_kv_heads`` consecutive query heads shares one key head and one value head.
``n_kv_heads == n_heads`` is ordinary multi-head attention, ``n_kv_heads == 1`` is
multi-query attention, and the cache shrinks by the factor ``n_heads / n_kv_heads``.
Reading: "Fast Transformer Decoding: One Write-Head is All You Need" (2019); "GQA: Training
Generalized Multi-Query Transformer Models from Multi-Head Checkpoints" (2023).
"""
import numpy as np

from .attention import scaled_dot_product_attention
from .multihead import merge_heads, split_heads


def repeat_kv(x, n_rep):
    """Repeat each key/value head ``n_rep`` times along the head axis, copies side by side.

    Parameters
    ----------
    x : array_like, shape (..., n_kv_heads, n, d)
        Keys or values, one (n, d) matrix per key/value head.
    n_rep : int
        How many query heads share each key/value head (at least 1).

    Returns
    -------
    numpy.ndarray, shape (..., n_kv_heads * n_rep, n, d)
        Output head ``j`` is input head ``j // n_rep``: ``kv0, kv0, kv1, kv1`` for two
        heads and ``n_rep = 2``. Same dtype as ``x`` (only data is moved).

    Raises
    ------
    ValueError
        If ``n_rep < 1`` or ``x`` has fewer than 3 dimensions.
    """
    ### BEGIN SOLUTION implement repeat_kv: each head repeated n_rep times in a row along the head axis
    x = np.asarray(x)
    if n_rep < 1:
        raise ValueError(f"n_rep must be at least 1, got {n_rep}")
    if x.ndim < 3:
        raise ValueError(f"x has shape {x.shape}; expected (..., n_kv_heads, n, d)")
    # anchor: repeat_kv.return
    return np.repeat(x, n_rep, axis=-3)  # (..., n_kv, n, d) -> (..., n_kv*n_rep, n, d), head j <- j // n_rep
    ### END SOLUTION


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    """Self-attention with ``n_heads`` query heads sharing ``n_kv_heads`` key/value heads.

    Parameters
    ----------
    X : array_like, shape (..., n, d_model)
    W_Q, W_O : array_like, shape (d_model, d_model)
        Packed query and output projections; query head ``h`` uses columns
        ``[h*d_head:(h+1)*d_head]`` of ``W_Q``, with ``d_head = d_model // n_heads``.
    W_K, W_V : array_like, shape (d_model, n_kv_heads * d_head)
        Packed key and value projections; key/value head ``g`` uses columns
        ``[g*d_head:(g+1)*d_head]``.
    n_heads : int
        Number of query heads; must divide ``d_model``. Each head scales by ``1/sqrt(d_head)``.
    n_kv_heads : int
        Number of key/value heads; must divide ``n_heads``. Query head ``h`` uses key/value
        head ``h // (n_heads // n_kv_heads)``.
    mask : array_like of bool, broadcastable to shape (..., n, n), optional
        True where a query may attend to a key; the same mask for every head.

    Returns
    -------
    output : numpy.ndarray, shape (..., n, d_model)
    weights : numpy.ndarray, shape (..., n_heads, n, n)

    Raises
    ------
    ValueError
        If ``d_model % n_heads`` or ``n_heads % n_kv_heads`` is not 0, or ``W_K``/``W_V``
        do not have ``n_kv_heads * d_head`` columns.
    """
    ### BEGIN SOLUTION implement grouped_query_attention: each key/value head shared by a group of query heads
    X, W_K, W_V = np.asarray(X), np.asarray(W_K), np.asarray(W_V)
    d_model = X.shape[-1]
    if n_heads <= 0 or d_model % n_heads != 0:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    if n_kv_heads <= 0 or n_heads % n_kv_heads != 0:
        raise ValueError(f"n_heads={n_heads} is not divisible by n_kv_heads={n_kv_heads}")
    d_head = d_model // n_heads
    for name, W in (("W_K", W_K), ("W_V", W_V)):
        if W.shape[-1] != n_kv_heads * d_head:
            raise ValueError(f"{name} has {W.shape[-1]} columns; expected n_kv_heads * d_head = "
                             f"{n_kv_heads} * {d_head} = {n_kv_heads * d_head}")
    n_rep = n_heads // n_kv_heads
    Q = split_heads(X @ np.asarray(W_Q), n_heads)   # (..., n, d_model) -> (..., nh, n, hs)
    K = split_heads(X @ W_K, n_kv_heads)            # (..., n, nkv*hs) -> (..., nkv, n, hs)
    V = split_heads(X @ W_V, n_kv_heads)            # (..., nkv, n, hs)
    K, V = repeat_kv(K, n_rep), repeat_kv(V, n_rep)  # (..., nkv, n, hs) -> (..., nh, n, hs)
    if mask is not None:
        mask = np.atleast_2d(np.asarray(mask, dtype=bool))  # a 1-D key mask (n,) becomes (1, n)
        mask = np.expand_dims(mask, -3)                     # (..., 1, n, n): one mask, every head
    # anchor: grouped_query_attention.heads
    heads, weights = scaled_dot_product_attention(Q, K, V, mask)  # (..., nh, n, hs), (..., nh, n, n)
    concat = merge_heads(heads)                     # (..., n, nh*hs) = (..., n, d_model)
    # anchor: grouped_query_attention.return
    return concat @ np.asarray(W_O), weights        # (..., n, d_model) @ (d_model, d_model) -> (..., n, d_model)
    ### END SOLUTION


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch=1, bytes_per_value=2):
    """Size of a decoder's key/value cache in bytes.

    Every layer caches one key and one value vector of ``d_head`` numbers per key/value head
    and per token: ``2 * n_layers * batch * n_kv_heads * seq_len * d_head * bytes_per_value``.

    Parameters
    ----------
    n_layers, n_kv_heads, d_head, seq_len, batch : int
        Non-negative sizes.
    bytes_per_value : int, optional
        2 for float16/bfloat16 (the default), 4 for float32.

    Returns
    -------
    int
        The number of bytes (a Python int, exact for any size).

    Raises
    ------
    ValueError
        If a size is negative.

    Examples
    --------
    >>> kv_cache_bytes(32, 8, 128, 4096) // 2**20   # 32 layers, 8 kv heads of 128, 4096 tokens, float16
    512
    """
    ### BEGIN SOLUTION implement kv_cache_bytes: keys and values of every layer, sequence, kv head and token
    sizes = {"n_layers": n_layers, "n_kv_heads": n_kv_heads, "d_head": d_head, "seq_len": seq_len,
             "batch": batch, "bytes_per_value": bytes_per_value}
    for name, size in sizes.items():
        if size < 0:
            raise ValueError(f"{name} must not be negative, got {size}")
    keys_and_values = 2
    # anchor: kv_cache_bytes.return
    return int(keys_and_values * n_layers * batch * n_kv_heads * seq_len * d_head * bytes_per_value)
    ### END SOLUTION
