"""Alternative gpt: embeddings by np.take, the head by einsum, log-softmax through np.logaddexp.reduce, losses as
Python floats gathered by flat indices, and the position read from the last layer's cache."""
import numpy as np

from .block import block_decode_step, transformer_block
from .layers import layer_norm


def _ids(tokens, V):
    tokens = np.asarray(tokens)
    if not np.issubdtype(tokens.dtype, np.integer) or tokens.ndim == 0:
        raise ValueError("tokens must be integer ids")
    if tokens.size and not ((tokens >= 0).all() and (tokens < V).all()):
        raise ValueError("ids must lie in [0, V)")
    return tokens


def gpt_forward(tokens, params, n_head):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    tokens = _ids(tokens, wte.shape[0])
    T = tokens.shape[-1]
    if T < 1 or T > wpe.shape[0]:
        raise ValueError("1 <= T <= n_ctx")
    x = np.take(wte, tokens, axis=0) + np.take(wpe, np.arange(T), axis=0)
    for block in params["h"]:
        x = transformer_block(x, block, n_head)
    x = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"], 1e-5)
    return np.einsum("...d,vd->...v", x, wte)


def gpt_decode_step(token, params, n_head, caches):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if len(caches) != len(params["h"]) or not caches:
        raise ValueError("one cache per layer")
    position = len(caches[-1])
    if position >= wpe.shape[0]:
        raise ValueError("the context is full")
    token = _ids(np.array([token]), wte.shape[0])[0]
    x = wte[token] + wpe[position]
    for layer, block in enumerate(params["h"]):
        x = block_decode_step(x, block, n_head, caches[layer])
    x = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"], 1e-5)
    return np.einsum("d,vd->v", x, wte)


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    x = x if np.issubdtype(x.dtype, np.floating) else x.astype(np.float64)
    return x - np.logaddexp.reduce(x, axis=axis, keepdims=True)


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError("targets must have logits.shape[:-1]")
    V = logits.shape[-1]
    flat = _ids(targets, V).reshape(-1)
    if flat.size == 0:
        raise ValueError("no positions")
    log_probs = log_softmax(logits).reshape(-1, V)
    return float(-log_probs[np.arange(flat.size), flat].mean())


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or tokens.shape[-1] < 2 or tokens.shape[-1] > params["wpe"]["weight"].shape[0]:
        raise ValueError("2 <= T <= n_ctx")
    inputs, targets = tokens[..., :-1], tokens[..., 1:]
    return cross_entropy(gpt_forward(inputs, params, n_head), targets)
