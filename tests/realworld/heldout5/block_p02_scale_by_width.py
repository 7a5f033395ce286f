"""Held-out #5: a GPT-2 block written head by head, in the loop style of from-scratch attention tutorials (a Python
loop over the heads, column slices of the q, k and v thirds, ``np.concatenate`` of the heads' outputs). The
scores are divided by ``sqrt(d)``, the model's width, where each head's dot products need ``sqrt(d_head)``: the
attention of every head is flatter than GPT-2's. Pre-norm residuals, masks and the cached step are right."""
import math

import numpy as np

from .layers import feed_forward, layer_norm, linear

EXPECTED = {"exercise": "block", "mistake": "block_scale_d_model"}


def _valid(n_head, d):
    if isinstance(n_head, bool) or not isinstance(n_head, (int, np.integer)) or n_head <= 0 or d % n_head != 0:
        raise ValueError(f"n_head={n_head!r} does not divide d={d}")


def _softmax_rows(s):
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def _attend(q, k, v, n_head, causal):
    """q (..., Tq, d), k and v (..., Tk, d): every head in turn; returns (..., Tq, d) and (..., n_head, Tq, Tk)."""
    d = q.shape[-1]
    hs = d // n_head
    outs, weights = [], []
    for h in range(n_head):
        cols = slice(h * hs, (h + 1) * hs)
        scores = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / math.sqrt(d)
        if causal:
            Tq, Tk = scores.shape[-2:]
            scores = np.where(np.tril(np.ones((Tq, Tk), dtype=bool), Tk - Tq), scores, -np.inf)
        w = _softmax_rows(scores)
        outs.append(w @ v[..., cols])
        weights.append(w)
    return np.concatenate(outs, axis=-1), np.stack(weights, axis=-3)


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    _valid(n_head, x.shape[-1])
    q, k, v = np.split(linear(x, params["c_attn"]), 3, axis=-1)
    out, w = _attend(q, k, v, n_head, causal=True)
    return linear(out, params["c_proj"]), w


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    a, _ = causal_self_attention(layer_norm(x, params["ln_1"]["weight"], params["ln_1"]["bias"]), params["attn"],
                                 n_head)
    x = x + a
    return x + feed_forward(layer_norm(x, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError("x_t: one position's vector of shape (d,) is expected")
    _valid(n_head, x_t.shape[0])
    q, k, v = np.split(linear(layer_norm(x_t, params["ln_1"]["weight"], params["ln_1"]["bias"]),
                              params["attn"]["c_attn"]), 3)
    cache.append(k, v)
    out, _ = _attend(q[None, :], np.asarray(cache.keys), np.asarray(cache.values), n_head, causal=False)
    h = x_t + linear(out[0], params["attn"]["c_proj"])
    return h + feed_forward(layer_norm(h, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])
