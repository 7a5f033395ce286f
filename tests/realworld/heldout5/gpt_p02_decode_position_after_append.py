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
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    z = x - top
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if logits.ndim == 0 or targets.shape != logits.shape[:-1]:
        raise ValueError("targets must have the shape of logits without its last axis")
    if targets.dtype.kind not in "iu" or not targets.size:
        raise ValueError("targets must be a non-empty integer array")
    if targets.min() < 0 or targets.max() >= logits.shape[-1]:
        raise ValueError("targets out of range [0, V)")
    picked = np.take_along_axis(log_softmax(logits), targets[..., None], axis=-1)
    return -picked.mean()


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= params["wpe"]["weight"].shape[0]:
        raise ValueError("lm_loss takes 2 to n_ctx tokens per sequence")
    return cross_entropy(gpt_forward(tokens[..., :-1], params, n_head), tokens[..., 1:])
