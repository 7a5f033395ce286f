"""Held-out #5: a GPT block in the compact NumPy style of the short GPT-2 ports (``np.split`` of the packed
projection, heads by reshape and transpose, an additive ``-1e10`` causal mask from ``np.tri``, a local softmax),
with the normalisation placed as in the original Transformer: ``x = ln_1(x + attn(x))`` and
``x = ln_2(x + mlp(x))`` (post-norm) instead of GPT-2's ``x + attn(ln_1(x))`` (pre-norm). The decode step makes
the same choice, so full and cached runs agree with each other and disagree with GPT-2."""
import numpy as np

from .layers import feed_forward, layer_norm, linear

EXPECTED = {"exercise": "block", "mistake": "block_post_norm"}


def _softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _heads(x, n_head):                      # [..., T, d] -> [..., n_head, T, d/n_head]
    *lead, T, d = x.shape
    return np.swapaxes(x.reshape(*lead, T, n_head, d // n_head), -3, -2)


def _merge(x):                              # [..., n_head, T, hs] -> [..., T, n_head*hs]
    x = np.swapaxes(x, -3, -2)
    return x.reshape(*x.shape[:-2], -1)


def _check_heads(n_head, d):
    if not isinstance(n_head, (int, np.integer)) or isinstance(n_head, bool) or n_head < 1 or d % n_head:
        raise ValueError(f"n_head={n_head!r} must be a positive integer dividing d={d}")


def causal_self_attention(x, params, n_head):
    x = np.asarray(x)
    T, d = x.shape[-2:]
    _check_heads(n_head, d)
    q, k, v = np.split(linear(x, params["c_attn"]), 3, axis=-1)
    q, k, v = _heads(q, n_head), _heads(k, n_head), _heads(v, n_head)
    mask = (1 - np.tri(T, dtype=x.dtype if x.dtype.kind == "f" else np.float64)) * -1e10
    w = _softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask)
    return linear(_merge(w @ v), params["c_proj"]), w


def transformer_block(x, params, n_head):
    x = np.asarray(x)
    ln_1, ln_2 = params["ln_1"], params["ln_2"]
    a, _ = causal_self_attention(x, params["attn"], n_head)
    x = layer_norm(x + a, ln_1["weight"], ln_1["bias"])
    return layer_norm(x + feed_forward(x, params["mlp"]), ln_2["weight"], ln_2["bias"])


def block_decode_step(x_t, params, n_head, cache):
    x_t = np.asarray(x_t)
    if x_t.ndim != 1:
        raise ValueError(f"x_t must have shape (d,), got {x_t.shape}")
    _check_heads(n_head, x_t.shape[0])
    ln_1, ln_2, attn = params["ln_1"], params["ln_2"], params["attn"]
    q, k, v = np.split(linear(x_t, attn["c_attn"]), 3)
    cache.append(k, v)
    K, Vs = _heads(np.asarray(cache.keys), n_head), _heads(np.asarray(cache.values), n_head)
    q = _heads(q[None, :], n_head)
    w = _softmax(q @ np.swapaxes(K, -1, -2) / np.sqrt(q.shape[-1]))
    a = linear(_merge(w @ Vs)[0], attn["c_proj"])
    h = layer_norm(x_t + a, ln_1["weight"], ln_1["bias"])
    return layer_norm(h + feed_forward(h, params["mlp"]), ln_2["weight"], ln_2["bias"])
