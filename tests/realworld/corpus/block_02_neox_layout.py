"""A GPT-2 block whose attention reads c_attn as GPT-NeoX packs it: the projection reshaped to
(..., T, n_head, 3 * d_head), then each head's slice cut into its q, k and v.

Bug: GPT-2 packs q | k | v as three thirds of the columns, each third split into heads; the per-head layout
mixes queries, keys and values of different heads (the same only with one head).
"""
import numpy as np

from .attention import scaled_dot_product_attention
from .layers import feed_forward, layer_norm, linear
from .masking import causal_mask

EXPECTED = {"exercise": "block", "mistake": "block_qkv_split_per_head"}


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    *batch, T, d = x.shape
    if n_head < 1 or d % n_head:
        raise ValueError("n_head must divide d")
    hs = d // n_head
    qkv = linear(x, params["c_attn"]).reshape(*batch, T, n_head, 3 * hs)
    qkv = np.swapaxes(qkv, -2, -3)                       # (..., nh, T, 3 hs)
    q, k, v = qkv[..., :hs], qkv[..., hs:2 * hs], qkv[..., 2 * hs:]
    out, weights = scaled_dot_product_attention(q, k, v, causal_mask(T))
    merged = np.swapaxes(out, -2, -3).reshape(*batch, T, d)
    return linear(merged, params["c_proj"]), weights


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    h = x + causal_self_attention(layer_norm(x, params["ln_1"]["weight"], params["ln_1"]["bias"]), params["attn"],
                                  n_head)[0]
    return h + feed_forward(layer_norm(h, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError("x_t must be 1-D")
    d = x_t.shape[0]
    if n_head < 1 or d % n_head:
        raise ValueError("n_head must divide d")
    hs = d // n_head
    qkv = linear(layer_norm(x_t, params["ln_1"]["weight"], params["ln_1"]["bias"]), params["attn"]["c_attn"])
    per_head = qkv.reshape(n_head, 3 * hs)
    q, k, v = per_head[:, :hs], per_head[:, hs:2 * hs], per_head[:, 2 * hs:]
    cache.append(k.reshape(d), v.reshape(d))
    keys = np.asarray(cache.keys).reshape(-1, n_head, hs).swapaxes(0, 1)      # (nh, t, hs)
    values = np.asarray(cache.values).reshape(-1, n_head, hs).swapaxes(0, 1)
    out, _ = scaled_dot_product_attention(q[:, None, :], keys, values)     # (nh, 1, hs)
    h = x_t + linear(out.reshape(d), params["attn"]["c_proj"])
    return h + feed_forward(layer_norm(h, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])
