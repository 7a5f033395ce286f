"""Held-out #3: a block in the order of the original Transformer (2017) paper, ``x = ln(x + attn(x))`` then
``x = ln(x + mlp(x))``, ported to GPT-2 weights that were trained pre-norm (``x + attn(ln(x))``)."""
import numbers

import numpy as np

from .attention import scaled_dot_product_attention
from .layers import feed_forward, layer_norm, linear
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "block", "mistake": "block_post_norm"}


def _heads_ok(n_head, d):
    if not isinstance(n_head, numbers.Integral) or n_head < 1 or d % n_head:
        raise ValueError(f"n_head={n_head!r} must divide d={d}")


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    T, d = x.shape[-2:]
    _heads_ok(n_head, d)
    q, k, v = np.split(linear(x, params["c_attn"]), 3, axis=-1)
    mask = np.tril(np.ones((T, T), dtype=bool))
    heads, weights = scaled_dot_product_attention(split_heads(q, n_head), split_heads(k, n_head),
                                                  split_heads(v, n_head), mask)
    return linear(merge_heads(heads), params["c_proj"]), weights


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    ln_1, ln_2 = params["ln_1"], params["ln_2"]
    x = layer_norm(x + causal_self_attention(x, params["attn"], n_head)[0], ln_1["weight"], ln_1["bias"])
    return layer_norm(x + feed_forward(x, params["mlp"]), ln_2["weight"], ln_2["bias"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError("x_t must be one position's vector of shape (d,)")
    _heads_ok(n_head, x_t.shape[0])
    ln_1, ln_2, attn = params["ln_1"], params["ln_2"], params["attn"]
    q, k, v = np.split(linear(x_t, attn["c_attn"]), 3)
    cache.append(k, v)
    heads, _ = scaled_dot_product_attention(split_heads(q[None, :], n_head), split_heads(np.asarray(cache.keys),
                                            n_head), split_heads(np.asarray(cache.values), n_head))
    h = layer_norm(x_t + linear(merge_heads(heads)[0], attn["c_proj"]), ln_1["weight"], ln_1["bias"])
    return layer_norm(h + feed_forward(h, params["mlp"]), ln_2["weight"], ln_2["bias"])
