"""Held-out #3: a from-scratch optimiser class's Adam, ported to parameter trees: the running moments m and v are
used directly (``p -= lr * m / (sqrt(v) + eps)``), without dividing by 1 - beta**t, so the first steps are far
too small. The backward pass is a layer-by-layer NumPy port of GPT-2 with cached activations."""
import copy
import math

import numpy as np

from .attention import scaled_dot_product_attention
from .attention_backward import attention_backward
from .gpt import cross_entropy, log_softmax
from .layers import gelu, layer_norm, linear
from .masking import causal_mask
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "training", "mistake": "training_adam_no_bias_correction"}
EPS = 1e-5


def layer_norm_backward(x, gamma, dy, eps=1e-5):
    x, gamma, dy = np.asarray(x), np.asarray(gamma), np.asarray(dy)
    if dy.shape != x.shape:
        raise ValueError("dy must have the shape of x")
    d = x.shape[-1]
    if gamma.shape != (d,):
        raise ValueError("gamma must have shape (d,)")
    dt = np.result_type(x, gamma, dy, 1.0)
    x, gamma, dy = x.astype(dt), gamma.astype(dt), dy.astype(dt)
    mu = x.mean(axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    xhat = (x - mu) * inv
    g = dy * gamma
    dx = inv * (g - g.mean(axis=-1, keepdims=True) - xhat * (g * xhat).mean(axis=-1, keepdims=True))
    return dx, (dy * xhat).reshape(-1, d).sum(axis=0), dy.reshape(-1, d).sum(axis=0)


def gelu_backward(x, dy):
    x, dy = np.asarray(x), np.asarray(dy)
    if dy.shape != x.shape:
        raise ValueError("dy must have the shape of x")
    dt = np.result_type(x, dy, 1.0)
    x, dy = np.clip(x.astype(dt), -20.0, 20.0), dy.astype(dt)
    c = math.sqrt(2.0 / math.pi)
    t = np.tanh(c * (x + 0.044715 * x**3))
    return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x))


def cross_entropy_backward(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    logits = logits.astype(np.result_type(logits, 1.0), copy=False)
    V = logits.shape[-1]
    if targets.dtype.kind not in "iu":
        raise ValueError("targets must be integer ids")
    if targets.shape != logits.shape[:-1]:
        raise ValueError("targets must have the shape logits.shape[:-1]")
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError("targets must lie in [0, V)")
    grad = np.exp(log_softmax(logits))
    grad = grad - (np.arange(V) == targets[..., None])
    return grad / max(targets.size, 1)


def _lin_back(x, layer, dy):
    w = np.asarray(layer["weight"])
    flat_x, flat_dy = x.reshape(-1, x.shape[-1]), dy.reshape(-1, dy.shape[-1])
    return dy @ w.T, {"weight": flat_x.T @ flat_dy, "bias": flat_dy.sum(axis=0)}


def gpt_backward(tokens, params, n_head):
    tokens = np.asarray(tokens)
    wte, wpe = np.asarray(params["wte"]["weight"]), np.asarray(params["wpe"]["weight"])
    (V, d), n_ctx = wte.shape, wpe.shape[0]
    if tokens.dtype.kind not in "iu" or tokens.ndim < 1:
        raise ValueError("tokens must be an integer array")
    if not 2 <= tokens.shape[-1] <= n_ctx:
        raise ValueError("the loss needs 2 <= T <= n_ctx")
    if tokens.min() < 0 or tokens.max() >= V:
        raise ValueError("token ids must lie in [0, V)")
    if n_head < 1 or d % n_head:
        raise ValueError("n_head must divide d")
    inputs, targets = tokens[..., :-1], tokens[..., 1:]
    T = inputs.shape[-1]
    mask = causal_mask(T)
    x = wte[inputs] + wpe[:T]
    cache = []
    for blk in params["h"]:
        a1 = layer_norm(x, blk["ln_1"]["weight"], blk["ln_1"]["bias"], EPS)
        q, k, v = (split_heads(part, n_head) for part in np.split(linear(a1, blk["attn"]["c_attn"]), 3, axis=-1))
        att = merge_heads(scaled_dot_product_attention(q, k, v, mask)[0])
        h = x + linear(att, blk["attn"]["c_proj"])
        a2 = layer_norm(h, blk["ln_2"]["weight"], blk["ln_2"]["bias"], EPS)
        pre = linear(a2, blk["mlp"]["c_fc"])
        act = gelu(pre)
        cache.append((x, a1, q, k, v, att, h, a2, pre, act))
        x = h + linear(act, blk["mlp"]["c_proj"])
    xf = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"], EPS)
    logits = xf @ wte.T
    loss = cross_entropy(logits, targets)
    dlogits = cross_entropy_backward(logits, targets)
    dwte = dlogits.reshape(-1, V).T @ xf.reshape(-1, d)
    dx, dg, db = layer_norm_backward(x, params["ln_f"]["weight"], dlogits @ wte, EPS)
    grads = {"ln_f": {"weight": dg, "bias": db}}
    layers = []
    for blk, (x_in, a1, q, k, v, att, h, a2, pre, act) in zip(params["h"][::-1], cache[::-1]):
        dact, g_proj = _lin_back(act, blk["mlp"]["c_proj"], dx)
        da2, g_fc = _lin_back(a2, blk["mlp"]["c_fc"], gelu_backward(pre, dact))
        dh, dg2, db2 = layer_norm_backward(h, blk["ln_2"]["weight"], da2, EPS)
        dh = dh + dx
        datt, g_aproj = _lin_back(att, blk["attn"]["c_proj"], dh)
        dq, dk, dv = attention_backward(q, k, v, split_heads(datt, n_head), mask)
        da1, g_attn = _lin_back(a1, blk["attn"]["c_attn"], np.concatenate([merge_heads(g) for g in (dq, dk, dv)],
                                                                          axis=-1))
        dx_in, dg1, db1 = layer_norm_backward(x_in, blk["ln_1"]["weight"], da1, EPS)
        dx = dh + dx_in
        layers.append({"ln_1": {"weight": dg1, "bias": db1}, "attn": {"c_attn": g_attn, "c_proj": g_aproj},
                       "ln_2": {"weight": dg2, "bias": db2}, "mlp": {"c_fc": g_fc, "c_proj": g_proj}})
    grads["h"] = layers[::-1]
    np.add.at(dwte, inputs.reshape(-1), dx.reshape(-1, d))
    dwpe = np.zeros_like(wpe, dtype=dwte.dtype)
    dwpe[:T] = dx.reshape(-1, T, d).sum(axis=0)
    grads["wte"], grads["wpe"] = {"weight": dwte}, {"weight": dwpe}
    return float(loss), grads


def _leaves(tree):
    if isinstance(tree, dict):
        return [leaf for key in tree for leaf in _leaves(tree[key])]
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in _leaves(item)]
    return [tree]


def _same_structure(a, b, where):
    if isinstance(a, dict):
        if not isinstance(b, dict) or set(a) != set(b):
            raise ValueError(f"{where}: the keys differ")
        for key in a:
            _same_structure(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            raise ValueError(f"{where}: the list lengths differ")
        for i, (x, y) in enumerate(zip(a, b)):
            _same_structure(x, y, f"{where}[{i}]")
    elif np.shape(a) != np.shape(b):
        raise ValueError(f"{where}: the shapes differ")


def _rebuild(tree, leaves):
    if isinstance(tree, dict):
        return {key: _rebuild(tree[key], leaves) for key in tree}
    if isinstance(tree, (list, tuple)):
        return [_rebuild(item, leaves) for item in tree]
    return next(leaves)


def adam_step(params, grads, state=None, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    beta1, beta2 = betas
    if lr < 0 or eps < 0 or weight_decay < 0 or not (0 <= beta1 < 1 and 0 <= beta2 < 1):
        raise ValueError("lr, eps, weight_decay must be >= 0 and betas in [0, 1)")
    _same_structure(params, grads, "grads")
    if state is None:
        zeros = [np.zeros_like(p, dtype=np.result_type(p, 1.0)) for p in _leaves(params)]
        state = {"t": 0, "m": _rebuild(params, iter(zeros)), "v": _rebuild(params, iter([z.copy() for z in zeros]))}
    _same_structure(params, state["m"], "state['m']")
    _same_structure(params, state["v"], "state['v']")
    new_p, new_m, new_v = [], [], []
    for p, g, m, v in zip(_leaves(params), _leaves(grads), _leaves(state["m"]), _leaves(state["v"])):
        p, m, v = np.asarray(p), np.asarray(m), np.asarray(v)
        g = np.asarray(g).astype(m.dtype, copy=False)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        updated = p * (1 - lr * weight_decay) - lr * m / (np.sqrt(v) + eps)
        new_p.append(updated.astype(p.dtype, copy=False))
        new_m.append(m)
        new_v.append(v)
    return _rebuild(params, iter(new_p)), {"t": state["t"] + 1, "m": _rebuild(params, iter(new_m)),
                                           "v": _rebuild(params, iter(new_v))}


def train(tokens, params, n_head, n_steps, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    if isinstance(n_steps, bool) or not isinstance(n_steps, (int, np.integer)) or n_steps < 0:
        raise ValueError("n_steps must be an integer >= 0")
    params, state = copy.deepcopy(params), None
    losses = np.zeros(n_steps)
    for step in range(n_steps):
        losses[step], grads = gpt_backward(tokens, params, n_head)
        params, state = adam_step(params, grads, state, lr, betas, eps, weight_decay)
    return params, losses
