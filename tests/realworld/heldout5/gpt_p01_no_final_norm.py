"""Held-out #5: the model in the style of the short NumPy GPT-2 ports (``x = wte[inputs] + wpe[range(len(inputs))]``,
a loop over the blocks, the tied head ``x @ wte.T``), where the final LayerNorm ``ln_f`` was left out: the head
reads the residual stream as the last block left it. The loss and its helpers are right."""
import numpy as np

from .block import block_decode_step, transformer_block

EXPECTED = {"exercise": "gpt", "mistake": "gpt_no_final_layer_norm"}


def _tokens(tokens, wte, wpe):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or tokens.dtype.kind not in "iu":
        raise ValueError("tokens: an integer array of shape (..., T) is expected")
    if not 1 <= tokens.shape[-1] <= wpe.shape[0]:
        raise ValueError(f"T={tokens.shape[-1]} is outside 1..n_ctx={wpe.shape[0]}")
    if tokens.size and not (0 <= tokens.min() and tokens.max() < wte.shape[0]):
        raise ValueError(f"token ids must be in [0, {wte.shape[0]})")
    return tokens


def gpt_forward(tokens, params, n_head):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    inputs = _tokens(tokens, wte, wpe)
    x = wte[inputs] + wpe[range(inputs.shape[-1])]
    for block in params["h"]:
        x = transformer_block(x, block, n_head)
    return x @ wte.T


def gpt_decode_step(token, params, n_head, caches):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if not params["h"] or len(caches) != len(params["h"]):
        raise ValueError("one cache per block is expected")
    pos = len(caches[0])
    if pos >= wpe.shape[0]:
        raise ValueError("the caches are full (n_ctx positions)")
    token = np.asarray(token)
    if token.ndim != 0 or token.dtype.kind not in "iu" or not 0 <= int(token) < wte.shape[0]:
        raise ValueError("token: one integer id in [0, V) is expected")
    x = wte[token] + wpe[pos]
    for block, cache in zip(params["h"], caches):
        x = block_decode_step(x, block, n_head, cache)
    return x @ wte.T


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    x = x if x.dtype.kind == "f" else x.astype(np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if logits.ndim == 0 or targets.shape != logits.shape[:-1]:
        raise ValueError("targets must have shape logits.shape[:-1]")
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("targets must be a non-empty integer array")
    if targets.min() < 0 or targets.max() >= logits.shape[-1]:
        raise ValueError("targets must lie in [0, V)")
    logp = log_softmax(logits)
    return -np.mean(np.take_along_axis(logp, targets[..., None], axis=-1))


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= params["wpe"]["weight"].shape[0]:
        raise ValueError("lm_loss needs 2 to n_ctx tokens per sequence")
    return cross_entropy(gpt_forward(tokens[..., :-1], params, n_head), tokens[..., 1:])
