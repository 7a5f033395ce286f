"""Held-out #4 (correct): a NumPy port of llm.c's layer-by-layer GPT-2 training step (encoder, per-layer
activation records, ``layernorm_backward`` with the two mean terms, the tanh-GELU derivative, the mean
cross-entropy's ``(probs - one_hot) / N``, the tied head's and the embedding's shares of wte added up with
``np.add.at``), an AdamW step with bias correction and decoupled decay written as ``lr * (m_hat / (sqrt(v_hat) + eps)
+ wd * p)``, and a loop that records the loss before each step."""
import copy
import math

import numpy as np

from .attention import scaled_dot_product_attention
from .attention_backward import attention_backward
from .gpt import cross_entropy, log_softmax
from .layers import gelu, layer_norm, linear
from .masking import causal_mask
from .multihead import merge_heads, split_heads

EXPECTED = {"exercise": "training", "mistake": None}
LN_EPS = 1e-5
GELU_A = 0.044715


def layer_norm_backward(x, gamma, dy, eps=1e-5):
    """(dx, dgamma, dbeta) of a LayerNorm over the last axis, llm.c's layernorm_backward in array form."""
    x, gamma, dy = np.asarray(x), np.asarray(gamma), np.asarray(dy)
    if x.shape != dy.shape:
        raise ValueError(f"layer_norm_backward: dy {dy.shape} must match x {x.shape}")
    C = x.shape[-1]
    if gamma.shape != (C,):
        raise ValueError(f"layer_norm_backward: gamma {gamma.shape} must be ({C},)")
    ft = np.result_type(x, gamma, dy, 1.0)
    x, gamma, dy = x.astype(ft, copy=False), gamma.astype(ft, copy=False), dy.astype(ft, copy=False)
    mean = np.mean(x, axis=-1, keepdims=True)
    rstd = (np.mean((x - mean) ** 2, axis=-1, keepdims=True) + eps) ** -0.5
    norm = (x - mean) * rstd
    dnorm = gamma * dy
    dnorm_mean = np.mean(dnorm, axis=-1, keepdims=True)
    dnorm_norm_mean = np.mean(dnorm * norm, axis=-1, keepdims=True)
    dx = (dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd
    return dx, np.sum((norm * dy).reshape(-1, C), axis=0), np.sum(dy.reshape(-1, C), axis=0)


def gelu_backward(x, dy):
    x, dy = np.asarray(x), np.asarray(dy)
    if x.shape != dy.shape:
        raise ValueError(f"gelu_backward: dy {dy.shape} must match x {x.shape}")
    ft = np.result_type(x, dy, 1.0)
    x = np.clip(x.astype(ft, copy=False), -20, 20)
    s = math.sqrt(2.0 / math.pi)
    cube = GELU_A * x * x * x
    tanh_out = np.tanh(s * (x + cube))
    sech2 = 1.0 - tanh_out * tanh_out
    local = 0.5 * (1.0 + tanh_out) + x * 0.5 * sech2 * s * (1.0 + 3.0 * GELU_A * x * x)
    return local * dy.astype(ft, copy=False)


def cross_entropy_backward(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    logits = logits.astype(np.result_type(logits, 1.0), copy=False)
    if targets.dtype.kind not in "iu":
        raise ValueError(f"cross_entropy_backward: integer targets expected, got {targets.dtype}")
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"cross_entropy_backward: targets {targets.shape} must be {logits.shape[:-1]}")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError(f"cross_entropy_backward: targets must lie in [0, {V})")
    flat = np.exp(log_softmax(logits)).reshape(-1, V)
    flat[np.arange(flat.shape[0]), targets.reshape(-1)] -= 1.0
    flat /= flat.shape[0]                      # the loss is a mean over the positions
    return flat.reshape(logits.shape)


def _matmul_backward(inp, layer, dout):
    """dinp and {"weight", "bias"} grads of out = inp @ weight + bias."""
    inp2, dout2 = inp.reshape(-1, inp.shape[-1]), dout.reshape(-1, dout.shape[-1])
    return dout @ np.asarray(layer["weight"]).T, {"weight": inp2.T @ dout2, "bias": dout2.sum(axis=0)}


def gpt_backward(tokens, params, n_head):
    tokens = np.asarray(tokens)
    wte, wpe = np.asarray(params["wte"]["weight"]), np.asarray(params["wpe"]["weight"])
    V, C = wte.shape
    if tokens.ndim < 1 or tokens.dtype.kind not in "iu":
        raise ValueError("gpt_backward: tokens must be integer ids of shape (..., T)")
    if not 2 <= tokens.shape[-1] <= wpe.shape[0]:
        raise ValueError(f"gpt_backward: 2 <= T <= {wpe.shape[0]} tokens are needed")
    if tokens.min() < 0 or tokens.max() >= V:
        raise ValueError(f"gpt_backward: token ids must lie in [0, {V})")
    if n_head < 1 or C % n_head:
        raise ValueError(f"gpt_backward: n_head={n_head} must divide {C}")
    inp, tgt = tokens[..., :-1], tokens[..., 1:]
    T = inp.shape[-1]
    mask = causal_mask(T)
    # forward: keep the activations each layer's backward needs
    residual = wte[inp] + wpe[:T]
    acts = []
    for layer in params["h"]:
        ln1 = layer_norm(residual, layer["ln_1"]["weight"], layer["ln_1"]["bias"], LN_EPS)
        qkv = linear(ln1, layer["attn"]["c_attn"])
        q, k, v = (split_heads(t, n_head) for t in np.split(qkv, 3, axis=-1))
        atty = merge_heads(scaled_dot_product_attention(q, k, v, mask)[0])
        residual2 = residual + linear(atty, layer["attn"]["c_proj"])
        ln2 = layer_norm(residual2, layer["ln_2"]["weight"], layer["ln_2"]["bias"], LN_EPS)
        fch = linear(ln2, layer["mlp"]["c_fc"])
        fch_gelu = gelu(fch)
        acts.append({"residual": residual, "ln1": ln1, "q": q, "k": k, "v": v, "atty": atty,
                     "residual2": residual2, "ln2": ln2, "fch": fch, "fch_gelu": fch_gelu})
        residual = residual2 + linear(fch_gelu, layer["mlp"]["c_proj"])
    lnf = layer_norm(residual, params["ln_f"]["weight"], params["ln_f"]["bias"], LN_EPS)
    logits = lnf @ wte.T
    loss = cross_entropy(logits, tgt)
    # backward
    dlogits = cross_entropy_backward(logits, tgt)
    dwte = dlogits.reshape(-1, V).T @ lnf.reshape(-1, C)
    dresidual, dlnfw, dlnfb = layer_norm_backward(residual, params["ln_f"]["weight"], dlogits @ wte, LN_EPS)
    layer_grads = [None] * len(params["h"])
    for i in range(len(params["h"]) - 1, -1, -1):
        layer, a = params["h"][i], acts[i]
        dfch_gelu, g_proj = _matmul_backward(a["fch_gelu"], layer["mlp"]["c_proj"], dresidual)
        dln2, g_fc = _matmul_backward(a["ln2"], layer["mlp"]["c_fc"], gelu_backward(a["fch"], dfch_gelu))
        dres2, dln2w, dln2b = layer_norm_backward(a["residual2"], layer["ln_2"]["weight"], dln2, LN_EPS)
        dresidual2 = dresidual + dres2
        datty, g_attproj = _matmul_backward(a["atty"], layer["attn"]["c_proj"], dresidual2)
        dq, dk, dv = attention_backward(a["q"], a["k"], a["v"], split_heads(datty, n_head), mask)
        dqkv = np.concatenate([merge_heads(dq), merge_heads(dk), merge_heads(dv)], axis=-1)
        dln1, g_qkv = _matmul_backward(a["ln1"], layer["attn"]["c_attn"], dqkv)
        dres1, dln1w, dln1b = layer_norm_backward(a["residual"], layer["ln_1"]["weight"], dln1, LN_EPS)
        dresidual = dresidual2 + dres1
        layer_grads[i] = {"ln_1": {"weight": dln1w, "bias": dln1b},
                          "attn": {"c_attn": g_qkv, "c_proj": g_attproj},
                          "ln_2": {"weight": dln2w, "bias": dln2b},
                          "mlp": {"c_fc": g_fc, "c_proj": g_proj}}
    np.add.at(dwte, inp.reshape(-1), dresidual.reshape(-1, C))
    dwpe = np.zeros(wpe.shape, dtype=dwte.dtype)
    dwpe[:T] = dresidual.reshape(-1, T, C).sum(axis=0)
    return float(loss), {"wte": {"weight": dwte}, "wpe": {"weight": dwpe}, "h": layer_grads,
                         "ln_f": {"weight": dlnfw, "bias": dlnfb}}


def _flatten(tree, out, like=None):
    """The leaves of ``tree`` in the order of ``like``'s keys (``tree``'s own when None)."""
    like = tree if like is None else like
    if isinstance(like, dict):
        for key in like:
            _flatten(tree[key], out, like[key])
    elif isinstance(like, (list, tuple)):
        for item, item_like in zip(tree, like):
            _flatten(item, out, item_like)
    else:
        out.append(tree)
    return out


def _unflatten(like, it):
    if isinstance(like, dict):
        return {key: _unflatten(like[key], it) for key in like}
    if isinstance(like, (list, tuple)):
        return [_unflatten(item, it) for item in like]
    return next(it)


def _same_layout(a, b, name):
    if isinstance(a, dict):
        if not isinstance(b, dict) or a.keys() != b.keys():
            raise ValueError(f"{name}: the keys do not match the params'")
        for key in a:
            _same_layout(a[key], b[key], f"{name}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            raise ValueError(f"{name}: the list lengths do not match the params'")
        for i, (x, y) in enumerate(zip(a, b)):
            _same_layout(x, y, f"{name}[{i}]")
    elif np.shape(a) != np.shape(b):
        raise ValueError(f"{name}: shape {np.shape(b)} where the params have {np.shape(a)}")


def adam_step(params, grads, state=None, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    beta1, beta2 = betas
    if lr < 0 or eps < 0 or weight_decay < 0 or not (0 <= beta1 < 1 and 0 <= beta2 < 1):
        raise ValueError(f"adam_step: lr={lr}, eps={eps}, weight_decay={weight_decay} >= 0 and betas={betas} "
                         "in [0, 1) are required")
    _same_layout(params, grads, "grads")
    if state is None:
        leaves = _flatten(params, [])
        state = {"t": 0,
                 "m": _unflatten(params, iter([np.zeros(np.shape(p), np.result_type(p, 1.0)) for p in leaves])),
                 "v": _unflatten(params, iter([np.zeros(np.shape(p), np.result_type(p, 1.0)) for p in leaves]))}
    _same_layout(params, state["m"], "state['m']")
    _same_layout(params, state["v"], "state['v']")
    t = state["t"] + 1
    new_params, new_m, new_v = [], [], []
    for p, g, m, v in zip(_flatten(params, []), _flatten(grads, [], params), _flatten(state["m"], [], params),
                          _flatten(state["v"], [], params)):
        p, m, v = np.asarray(p), np.asarray(m), np.asarray(v)
        g = np.asarray(g).astype(m.dtype, copy=False)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        m_hat = m / (1 - beta1**t)
        v_hat = v / (1 - beta2**t)
        p_new = p - lr * (m_hat / (np.sqrt(v_hat) + eps) + weight_decay * p)
        new_params.append(p_new.astype(p.dtype, copy=False))
        new_m.append(m)
        new_v.append(v)
    return _unflatten(params, iter(new_params)), {"t": t, "m": _unflatten(params, iter(new_m)),
                                                  "v": _unflatten(params, iter(new_v))}


def train(tokens, params, n_head, n_steps, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    if isinstance(n_steps, bool) or not isinstance(n_steps, (int, np.integer)) or n_steps < 0:
        raise ValueError(f"train: n_steps must be an integer >= 0, got {n_steps!r}")
    params = copy.deepcopy(params)
    opt_state = None
    losses = []
    for _ in range(n_steps):
        loss, grads = gpt_backward(tokens, params, n_head)
        losses.append(loss)
        params, opt_state = adam_step(params, grads, opt_state, lr, betas, eps, weight_decay)
    return params, np.asarray(losses, dtype=np.float64).reshape(n_steps)
