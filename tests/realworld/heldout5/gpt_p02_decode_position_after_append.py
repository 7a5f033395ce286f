"""Held-out #5: the model with a cached decode step written as if the caches already held the new position
(``pos = len(caches[0]) - 1``, the length after the append), in the style of KV-cache tutorials that read the
position from the cache after updating it. Every cached step embeds its token one position early (the first step
at -1, the last row of ``wpe``); the full forward pass and the loss are right."""
import numpy as np

from .block import block_decode_step, transformer_block
from .layers import layer_norm

EXPECTED = {"exercise": "gpt", "mistake": "gpt_decode_position_off_by_one"}


def _check(tokens, V, n_ctx):
    if tokens.ndim == 0 or tokens.dtype.kind not in "iu":
        raise ValueError("tokens must be an integer array of shape (..., T)")
    if not 1 <= tokens.shape[-1] <= n_ctx:
        raise ValueError(f"T must lie in 1..{n_ctx}")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= V):
        raise ValueError(f"ids must lie in [0, {V})")


def _head(x, params):
    return layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"]) @ params["wte"]["weight"].T


def gpt_forward(tokens, params, n_head):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    tokens = np.asarray(tokens)
    _check(tokens, wte.shape[0], wpe.shape[0])
    x = wte[tokens] + wpe[: tokens.shape[-1]]
    for block in params["h"]:
        x = transformer_block(x, block, n_head)
    return _head(x, params)


def gpt_decode_step(token, params, n_head, caches):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if len(caches) != len(params["h"]) or not caches:
        raise ValueError("expected one KV cache per block")
    if len(caches[0]) >= wpe.shape[0]:
        raise ValueError("no room left: the caches hold n_ctx positions")
    token = np.asarray(token)
    if token.ndim or token.dtype.kind not in "iu" or not 0 <= token < wte.shape[0]:
        raise ValueError("token must be a single integer id in [0, V)")
    pos = len(caches[0]) - 1
    x = wte[token] + wpe[pos]
    for block, cache in zip(params["h"], caches):
        x = block_decode_step(x, block, n_head, cache)
    return _head(x, params)


def log_softmax(x, axis=-1):
    x = np.asarray(x, dtype=None)
    x = x.astype(np.float64) if x.dtype.kind in "biu" else x
    shift = np.nan_to_num(x.max(axis=axis, keepdims=True), neginf=0.0, posinf=0.0)
    lse = np.log(np.sum(np.exp(x - shift), axis=axis, keepdims=True)) + shift
    return x - lse


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    V = logits.shape[-1] if logits.ndim else 0
    if not V or targets.shape != logits.shape[:-1]:
        raise ValueError("cross_entropy: targets must be shaped like logits without the vocabulary axis")
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("cross_entropy: integer targets, at least one")
    if targets.min() < 0 or targets.max() >= V:
        raise ValueError(f"cross_entropy: targets must be ids in [0, {V})")
    nll = -np.take_along_axis(log_softmax(logits), np.expand_dims(targets, -1), axis=-1)
    return nll.sum() / targets.size


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or tokens.shape[-1] < 2 or tokens.shape[-1] > len(params["wpe"]["weight"]):
        raise ValueError("lm_loss: sequences of 2 to n_ctx tokens")
    logits = gpt_forward(tokens[..., :-1], params, n_head)
    return cross_entropy(logits, tokens[..., 1:])
