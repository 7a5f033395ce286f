"""Held-out #3: a GPT block assembled from an encoder tutorial's attention, which calls the attention with no
mask: in a full-sequence forward every position also attends to the positions after it."""
import numbers

import numpy as np

from .attention import scaled_dot_product_attention
from .layers import feed_forward, layer_norm, linear
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "block", "mistake": "block_no_causal_mask"}


def _heads_ok(n_head, d):
    if not isinstance(n_head, numbers.Integral) or n_head < 1 or d % n_head:
        raise ValueError(f"n_head={n_head!r} must divide d={d}")


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    _heads_ok(n_head, x.shape[-1])
    q, k, v = np.split(linear(x, params["c_attn"]), 3, axis=-1)
    heads, weights = scaled_dot_product_attention(split_heads(q, n_head), split_heads(k, n_head),
                                                  split_heads(v, n_head))
    return linear(merge_heads(heads), params["c_proj"]), weights


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    ln_1, ln_2 = params["ln_1"], params["ln_2"]
    h = x + causal_self_attention(layer_norm(x, ln_1["weight"], ln_1["bias"]), params["attn"], n_head)[0]
    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError("x_t must be one position's vector of shape (d,)")
    _heads_ok(n_head, x_t.shape[0])
    ln_1, ln_2, attn = params["ln_1"], params["ln_2"], params["attn"]
    q, k, v = np.split(linear(layer_norm(x_t, ln_1["weight"], ln_1["bias"]), attn["c_attn"]), 3)
    cache.append(k, v)
    heads, _ = scaled_dot_product_attention(split_heads(q[None, :], n_head), split_heads(np.asarray(cache.keys),
                                            n_head), split_heads(np.asarray(cache.values), n_head))
    h = x_t + linear(merge_heads(heads)[0], attn["c_proj"])
    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])
