"""Alternative block: a loop over the heads with column slices of c_attn, its own causal softmax, and a decode step
that keeps no state of its own (everything it needs is read back from the cache)."""
import math

import numpy as np

from .layers import feed_forward, layer_norm


def _heads(x, n_head):
    """(d, d_head); ValueError unless n_head divides d."""
    d = x.shape[-1]
    if not isinstance(n_head, int) or n_head < 1 or d % n_head:
        raise ValueError("n_head must divide d")
    return d, d // n_head


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    d, hs = _heads(x, n_head)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    W, b = params["c_attn"]["weight"], params["c_attn"]["bias"]
    T = x.shape[-2]
    future = np.triu(np.ones((T, T), dtype=bool), 1)
    outputs, weights = [], []
    for h in range(n_head):
        q, k, v = (x @ W[:, o + h * hs:o + (h + 1) * hs] + b[o + h * hs:o + (h + 1) * hs] for o in (0, d, 2 * d))
        scores = np.where(future, -np.inf, q @ np.swapaxes(k, -1, -2) / math.sqrt(hs))
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        w = e / e.sum(axis=-1, keepdims=True)
        outputs.append(w @ v)
        weights.append(w)
    merged = np.concatenate(outputs, axis=-1)
    return merged @ params["c_proj"]["weight"] + params["c_proj"]["bias"], np.stack(weights, axis=-3)


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    h = x + causal_self_attention(layer_norm(x, params["ln_1"]["weight"], params["ln_1"]["bias"]), params["attn"],
                                  n_head)[0]
    return h + feed_forward(layer_norm(h, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError("x_t must be 1-D")
    d, hs = _heads(x_t, n_head)
    attn = params["attn"]
    qkv = layer_norm(x_t, params["ln_1"]["weight"], params["ln_1"]["bias"]) @ attn["c_attn"]["weight"] \
        + attn["c_attn"]["bias"]
    cache.append(qkv[d:2 * d], qkv[2 * d:])
    keys, values = np.asarray(cache.keys), np.asarray(cache.values)
    heads = []
    for h in range(n_head):
        cols = slice(h * hs, (h + 1) * hs)
        scores = keys[:, cols] @ qkv[cols] / math.sqrt(hs)
        e = np.exp(scores - scores.max())
        heads.append((e / e.sum()) @ values[:, cols])
    h = x_t + np.concatenate(heads) @ attn["c_proj"]["weight"] + attn["c_proj"]["bias"]
    return h + feed_forward(layer_norm(h, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])
