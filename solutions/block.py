"""Exercise ``block``: a pre-norm GPT-2 transformer block, in full and as one cached step.

    a   = causal_self_attention(layer_norm(x, ln_1), attn)
    h   = x + a                                  first residual connection
    out = h + feed_forward(layer_norm(h, ln_2), mlp)   second residual connection

The attention is the kit's own multi-head attention (split_heads, scaled dot-product
attention with a causal mask, merge_heads) around GPT-2's packed projections: one
``c_attn`` of shape (d, 3d) whose columns are the queries, keys and values in three
consecutive thirds, and a biased output projection ``c_proj``. The decode step is the
same block for one new position: its key and value are appended to the layer's cache
first, then its query attends to every cached position, itself included.
Sources: "Language Models are Unsupervised Multitask Learners" (GPT-2, 2019);
"Attention Is All You Need" (2017), 3.2.
"""
import numbers

import numpy as np

from .attention import scaled_dot_product_attention
from .layers import feed_forward, layer_norm, linear
from .masking import causal_mask
from .multihead import merge_heads, split_heads


def causal_self_attention(x, params, n_head):
    """GPT-2's causal multi-head self-attention (HF ``GPT2Attention``).

    Parameters
    ----------
    x : array_like, shape (..., T, d)
    params : dict
        A block's ``"attn"``: ``{"c_attn": {"weight": (d, 3d), "bias": (3d,)},
        "c_proj": {"weight": (d, d), "bias": (d,)}}``; the columns of ``c_attn`` are
        ``q | k | v``, and head ``h`` owns columns ``[h*d_head:(h+1)*d_head]`` of each third.
    n_head : int
        Number of heads; must divide ``d``. ``d_head = d // n_head``.

    Returns
    -------
    output : numpy.ndarray, shape (..., T, d)
    weights : numpy.ndarray, shape (..., n_head, T, T)
        Each head's attention weights; 0 above the diagonal (a query never sees a later key).

    Raises
    ------
    ValueError
        If ``n_head`` is not a positive integer that divides ``d``.
    """
    ### BEGIN SOLUTION implement causal_self_attention: packed qkv, thirds, heads, causal attention, merge, c_proj
    x = np.asarray(x)
    *batch, T, d = x.shape
    if not isinstance(n_head, numbers.Integral) or n_head < 1 or d % n_head:
        raise ValueError(f"n_head={n_head!r} must be a positive integer that divides d={d}")
    # anchor: causal_self_attention.qkv
    qkv = linear(x, params["c_attn"])          # (..., T, d) @ (d, 3d) -> (..., T, 3d)
    # anchor: causal_self_attention.q
    q, k, v = np.split(qkv, 3, axis=-1)        # three (..., T, d): q | k | v
    q = split_heads(q, n_head)                 # (..., nh, T, hs)
    k = split_heads(k, n_head)                 # (..., nh, T, hs)
    v = split_heads(v, n_head)                 # (..., nh, T, hs)
    # anchor: causal_self_attention.heads
    heads, weights = scaled_dot_product_attention(q, k, v, causal_mask(T))  # (..., nh, T, hs), (..., nh, T, T)
    merged = merge_heads(heads)                # (..., T, nh*hs) = (..., T, d)
    # anchor: causal_self_attention.return
    return linear(merged, params["c_proj"]), weights  # (..., T, d) @ (d, d) -> (..., T, d)
    ### END SOLUTION


def transformer_block(x, params, n_head):
    """One pre-norm GPT-2 block (HF ``GPT2Block``).

    Parameters
    ----------
    x : array_like, shape (..., T, d)
        The residual stream.
    params : dict
        One entry of ``params["h"]``: ``ln_1``, ``attn``, ``ln_2``, ``mlp`` (LayerNorms as
        ``{"weight": (d,), "bias": (d,)}``, eps 1e-5).
    n_head : int
        Number of heads; must divide ``d``.

    Returns
    -------
    numpy.ndarray, shape (..., T, d)
        ``h = x + attn(ln_1(x))``, then ``h + mlp(ln_2(h))``. Float dtype of ``x`` and the
        parameters (float64 for integer or list input).

    Raises
    ------
    ValueError
        If ``n_head`` is not a positive integer that divides ``d``.
    """
    ### BEGIN SOLUTION implement transformer_block: x + attention of ln_1(x), then + feed-forward of ln_2 of that
    x = np.asarray(x)
    # anchor: transformer_block.ln_1
    ln_1, ln_2 = params["ln_1"], params["ln_2"]
    # anchor: transformer_block.attended
    attended, _ = causal_self_attention(layer_norm(x, ln_1["weight"], ln_1["bias"]), params["attn"], n_head)
    # anchor: transformer_block.h
    h = x + attended                                                                  # (..., T, d)
    # anchor: transformer_block.return
    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])  # (..., T, d)
    ### END SOLUTION


def block_decode_step(x_t, params, n_head, cache):
    """The block at one new position, reading the earlier keys and values from ``cache``.

    Parameters
    ----------
    x_t : array_like, shape (d,)
        The residual-stream vector of position ``len(cache)``.
    params : dict
        One entry of ``params["h"]`` (as in :func:`transformer_block`).
    n_head : int
        Number of heads; must divide ``d``.
    cache : KVCache
        This layer's cache: per position, the key and the value of shape (d,) with every head
        side by side (the k and v thirds of ``ln_1(x) @ c_attn.weight + c_attn.bias``). This step
        appends its own key and value exactly once, then attends over every cached position.

    Returns
    -------
    numpy.ndarray, shape (d,)
        The block's output at this position. Stepping positions ``0..T-1`` from an empty cache
        equals ``transformer_block(x, params, n_head)`` row by row.

    Raises
    ------
    ValueError
        If ``x_t`` is not 1-D, or ``n_head`` is not a positive integer that divides ``d`` (before
        anything is appended).
    """
    ### BEGIN SOLUTION implement block_decode_step: qkv of ln_1(x_t), append k and v, attend over the cache, finish
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError(f"x_t must be 1-D (one position's vector of shape (d,)), got shape {x_t.shape}")
    (d,) = x_t.shape
    if not isinstance(n_head, numbers.Integral) or n_head < 1 or d % n_head:
        raise ValueError(f"n_head={n_head!r} must be a positive integer that divides d={d}")
    ln_1, ln_2, attn = params["ln_1"], params["ln_2"], params["attn"]
    # anchor: block_decode_step.qkv
    qkv = linear(layer_norm(x_t, ln_1["weight"], ln_1["bias"]), attn["c_attn"])  # (d,) @ (d, 3d) -> (3d,)
    q, k, v = np.split(qkv, 3)                     # three (d,)
    # anchor: block_decode_step.cache
    cache.append(k, v)                             # first append: the position attends to itself
    # anchor: block_decode_step.keys
    keys = split_heads(np.asarray(cache.keys), n_head)      # (t, d) -> (nh, t, hs)
    # anchor: block_decode_step.values
    values = split_heads(np.asarray(cache.values), n_head)  # (t, d) -> (nh, t, hs)
    query = split_heads(q[None, :], n_head)        # (1, d) -> (nh, 1, hs)
    # anchor: block_decode_step.heads
    heads, _ = scaled_dot_product_attention(query, keys, values)  # (nh, 1, hs) over all t cached keys
    merged = merge_heads(heads)[0]                 # (1, nh*hs) -> (d,)
    h = x_t + linear(merged, attn["c_proj"])       # (d,) @ (d, d) -> (d,)
    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])  # (d,)
    ### END SOLUTION
