"""Held-out #3: a picoGPT-style forward (embeddings, the blocks, then the tied head) that goes from the last
block straight to ``x @ wte.T``: the final layer norm ``ln_f`` is never applied, in the full pass or the decode
step."""
import numpy as np

from .block import block_decode_step, transformer_block

EXPECTED = {"exercise": "gpt", "mistake": "gpt_no_final_layer_norm"}


def _check_tokens(tokens, V, n_ctx, low=1):
    if tokens.dtype.kind not in "iu" or tokens.ndim == 0:
        raise ValueError("tokens must be an integer array of shape (..., T)")
    if not low <= tokens.shape[-1] <= n_ctx:
        raise ValueError(f"T={tokens.shape[-1]} must lie in [{low}, {n_ctx}]")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= V):
        raise ValueError(f"token ids must lie in [0, {V})")


def gpt_forward(tokens, params, n_head):
    tokens = np.asarray(tokens)
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    _check_tokens(tokens, wte.shape[0], wpe.shape[0])
    x = wte[tokens] + wpe[: tokens.shape[-1]]
    for block in params["h"]:
        x = transformer_block(x, block, n_head)
    return x @ wte.T


def gpt_decode_step(token, params, n_head, caches):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if len(caches) != len(params["h"]) or not params["h"]:
        raise ValueError("one cache per block")
    position = len(caches[0])
    if position >= wpe.shape[0]:
        raise ValueError("the caches are full (n_ctx positions)")
    token = np.asarray(token)
    if token.ndim != 0 or token.dtype.kind not in "iu" or not 0 <= token < wte.shape[0]:
        raise ValueError("token must be one integer id in [0, V)")
    x = wte[token] + wpe[position]
    for block, cache in zip(params["h"], caches):
        x = block_decode_step(x, block, n_head, cache)
    return x @ wte.T


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    top = np.max(x, axis=axis, keepdims=True)
    shifted = x - np.where(np.isfinite(top), top, 0)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if logits.ndim == 0 or targets.shape != logits.shape[:-1]:
        raise ValueError("targets must have the shape logits.shape[:-1]")
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("targets must be a non-empty integer array")
    if targets.min() < 0 or targets.max() >= logits.shape[-1]:
        raise ValueError("targets must lie in [0, V)")
    picked = np.take_along_axis(log_softmax(logits), targets[..., None], axis=-1)[..., 0]
    return -np.mean(picked)


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    n_ctx = params["wpe"]["weight"].shape[0]
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= n_ctx:
        raise ValueError("lm_loss needs 2 to n_ctx tokens per sequence")
    return cross_entropy(gpt_forward(tokens[..., :-1], params, n_head), tokens[..., 1:])
