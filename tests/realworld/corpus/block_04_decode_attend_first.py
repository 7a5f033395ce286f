"""A GPT-2 block whose decode step follows "read the cache, then update it": the keys and values cached so far
are stacked with nothing new, attended over, and the new position's key and value appended at the end.

Bug: the position never attends to itself (the first step has nothing to attend to); its own key and value must
be cached before the query attends.
"""
import numpy as np

from .attention import scaled_dot_product_attention
from .layers import feed_forward, layer_norm, linear
from .masking import causal_mask
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "block", "mistake": "block_decode_attend_before_append"}


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    if n_head < 1 or x.shape[-1] % n_head:
        raise ValueError("n_head must divide d")
    q, k, v = (split_heads(part, n_head) for part in np.split(linear(x, params["c_attn"]), 3, axis=-1))
    out, weights = scaled_dot_product_attention(q, k, v, causal_mask(x.shape[-2]))
    return linear(merge_heads(out), params["c_proj"]), weights


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    ln_1, ln_2 = params["ln_1"], params["ln_2"]
    h = x + causal_self_attention(layer_norm(x, ln_1["weight"], ln_1["bias"]), params["attn"], n_head)[0]
    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError("x_t must be 1-D")
    if n_head < 1 or x_t.shape[0] % n_head:
        raise ValueError("n_head must divide d")
    ln_1, ln_2 = params["ln_1"], params["ln_2"]
    q, k, v = np.split(linear(layer_norm(x_t, ln_1["weight"], ln_1["bias"]), params["attn"]["c_attn"]), 3)
    keys = split_heads(np.asarray(cache.keys), n_head)
    values = split_heads(np.asarray(cache.values), n_head)
    out, _ = scaled_dot_product_attention(split_heads(q[None], n_head), keys, values)
    cache.append(k, v)
    h = x_t + linear(merge_heads(out)[0], params["attn"]["c_proj"])
    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])
