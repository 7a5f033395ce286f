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
    wte, wpe, blocks = params["wte"]["weight"], params["wpe"]["weight"], params["h"]
    if len(blocks) == 0 or len(caches) != len(blocks):
        raise ValueError("one cache per block is expected")
    n_past = len(caches[0])                      # positions already in every cache
    if n_past >= len(wpe):
        raise ValueError("the caches are full (n_ctx positions)")
    if not isinstance(token, (int, np.integer)) or isinstance(token, bool) or not 0 <= token < len(wte):
        token = np.asarray(token)
        if token.ndim or token.dtype.kind not in "iu" or not 0 <= int(token) < len(wte):
            raise ValueError("token: one integer id in [0, V) is expected")
    h = wte[token] + wpe[n_past]
    for i in range(len(blocks)):
        h = block_decode_step(h, blocks[i], n_head, caches[i])
    return h @ wte.T


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    c = np.max(x, axis=axis, keepdims=True)
    c[~np.isfinite(c)] = 0                       # an all -inf row: shift by nothing
    return x - (c + np.log(np.exp(x - c).sum(axis=axis, keepdims=True)))


def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if logits.ndim < 1 or targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape}: expected logits.shape[:-1]")
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("targets must hold at least one integer id")
    if (targets < 0).any() or (targets >= logits.shape[-1]).any():
        raise ValueError("a target id lies outside [0, V)")
    flat = log_softmax(logits).reshape(-1, logits.shape[-1])
    return -flat[np.arange(flat.shape[0]), targets.reshape(-1)].mean()


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    n_ctx = params["wpe"]["weight"].shape[0]
    if tokens.ndim < 1 or tokens.shape[-1] < 2 or tokens.shape[-1] > n_ctx:
        raise ValueError(f"lm_loss: each sequence needs between 2 and {n_ctx} tokens")
    inputs, targets = tokens[..., :-1], tokens[..., 1:]
    return cross_entropy(gpt_forward(inputs, params, n_head), targets)
