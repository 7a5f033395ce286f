"""Held-out #4: a NumPy GPT-2 port whose loss was written like a language-model data loader over one flat stream of
token ids (the targets are the inputs moved one place to the left): ``np.roll(tokens, -1)`` with no axis, and the
logits of all T positions scored. The last position of every sequence is scored on a token that wrapped around
(the next sequence's first token in a batch, its own first token for one sequence). The forward pass is correct."""
import numpy as np

from .block import block_decode_step, transformer_block
from .layers import layer_norm

EXPECTED = {"exercise": "gpt", "mistake": "gpt_loss_rolled_targets"}


def _ids(tokens, vocab, n_ctx):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or tokens.dtype.kind not in "iu":
        raise ValueError("tokens: an integer array of shape (..., T) is expected")
    if not 1 <= tokens.shape[-1] <= n_ctx:
        raise ValueError(f"tokens: T = {tokens.shape[-1]} is outside [1, {n_ctx}]")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= vocab):
        raise ValueError(f"tokens: ids must lie in [0, {vocab})")
    return tokens


def _head(x, params):
    ln_f = params["ln_f"]
    return layer_norm(x, ln_f["weight"], ln_f["bias"]) @ params["wte"]["weight"].T


def gpt_forward(tokens, params, n_head):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    tokens = _ids(tokens, wte.shape[0], wpe.shape[0])
    n = tokens.shape[-1]
    h = wte[tokens] + wpe[np.arange(n)]
    for layer in params["h"]:
        h = transformer_block(h, layer, n_head)
    return _head(h, params)


def gpt_decode_step(token, params, n_head, caches):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if not params["h"] or len(caches) != len(params["h"]):
        raise ValueError("caches: one KV cache per block is expected")
    pos = len(caches[0])
    if pos >= wpe.shape[0]:
        raise ValueError(f"the caches already hold n_ctx = {wpe.shape[0]} positions")
    token = np.asarray(token)
    if token.ndim or token.dtype.kind not in "iu" or not 0 <= int(token) < wte.shape[0]:
        raise ValueError("token: one integer id in [0, V) is expected")
    h = wte[token] + wpe[pos]
    for layer, cache in zip(params["h"], caches):
        h = block_decode_step(h, layer, n_head, cache)
    return _head(h, params)


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    x = x if x.dtype.kind == "f" else x.astype(np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    return (x - m) - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if logits.ndim == 0 or targets.shape != logits.shape[:-1]:
        raise ValueError("targets must have the shape logits.shape[:-1]")
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("targets must be a non-empty integer array")
    if targets.min() < 0 or targets.max() >= logits.shape[-1]:
        raise ValueError("targets must lie in [0, V)")
    logp = log_softmax(logits)
    return -np.take_along_axis(logp, targets[..., None], axis=-1).mean()


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    n_ctx = params["wpe"]["weight"].shape[0]
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= n_ctx:
        raise ValueError(f"lm_loss: 2 to {n_ctx} tokens per sequence are needed")
    y = np.roll(tokens, -1)          # next token of every position, as in a flat stream
    return cross_entropy(gpt_forward(tokens, params, n_head), y)
