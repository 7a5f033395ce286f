"""A GPT-2 block in the style of the small numpy GPT-2 ports, made batch-aware: np.split into the q | k | v
thirds, then each third into a list of heads, an additive causal mask `(1 - tri) * -1e10` added to the scores,
its own softmax, the heads concatenated back. The decode step splits the cached keys the same way. Correct."""
import math

import numpy as np

from .layers import feed_forward, layer_norm, linear

EXPECTED = {"exercise": "block", "mistake": None}


def _check(d, n_head):
    if not isinstance(n_head, int) or n_head <= 0 or d % n_head != 0:
        raise ValueError(f"cannot split d={d} into {n_head} heads")


def _softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    _check(x.shape[-1], n_head)
    qkv = linear(x, params["c_attn"])
    q_heads, k_heads, v_heads = (np.split(part, n_head, axis=-1) for part in np.split(qkv, 3, axis=-1))
    T = x.shape[-2]
    mask = (1 - np.tri(T, dtype=qkv.dtype)) * -1e10
    outs, weights = [], []
    for q, k, v in zip(q_heads, k_heads, v_heads):
        w = _softmax(q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1]) + mask)
        outs.append(w @ v)
        weights.append(w)
    return linear(np.concatenate(outs, axis=-1), params["c_proj"]), np.stack(weights, axis=-3)


def transformer_block(x, params, n_head):
    x = x + causal_self_attention(layer_norm(x, **_ln(params["ln_1"])), params["attn"], n_head)[0]
    return x + feed_forward(layer_norm(x, **_ln(params["ln_2"])), params["mlp"])


def _ln(p):
    return {"gamma": p["weight"], "beta": p["bias"]}


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError(f"x_t must have shape (d,), got {x_t.shape}")
    _check(x_t.shape[0], n_head)
    q, k, v = np.split(linear(layer_norm(x_t, **_ln(params["ln_1"])), params["attn"]["c_attn"]), 3)
    cache.append(k, v)
    outs = [_softmax(kh @ qh / math.sqrt(qh.shape[0])) @ vh
            for qh, kh, vh in zip(np.split(q, n_head), np.split(cache.keys, n_head, axis=-1),
                                  np.split(cache.values, n_head, axis=-1))]
    x_t = x_t + linear(np.concatenate(outs), params["attn"]["c_proj"])
    return x_t + feed_forward(layer_norm(x_t, **_ln(params["ln_2"])), params["mlp"])
