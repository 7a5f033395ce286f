"""Held-out #4: a picoGPT-style model with a cached decode step added by hand. The full pass embeds positions
``wpe[:T]`` (T the sequence length); the decode step mirrors it by computing the sequence length with the new token
included, ``T = len(cache) + 1``, and then looks up ``wpe[T]`` instead of ``wpe[T - 1]``: every cached step uses the
position after its own. The full pass and the loss are correct."""
import numpy as np

from .block import block_decode_step, transformer_block
from .layers import layer_norm

EXPECTED = {"exercise": "gpt", "mistake": "gpt_decode_position_off_by_one"}


def gpt_forward(tokens, params, n_head):
    """tokens (..., T) -> logits (..., T, V)"""
    tokens = np.asarray(tokens)
    wte, wpe, ln_f = params["wte"]["weight"], params["wpe"]["weight"], params["ln_f"]
    if tokens.ndim < 1 or tokens.dtype.kind not in "iu":
        raise ValueError("gpt_forward expects integer token ids of shape (..., T)")
    T = tokens.shape[-1]
    if T < 1 or T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} must be between 1 and n_ctx={wpe.shape[0]}")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= wte.shape[0]):
        raise ValueError(f"token ids must be in [0, {wte.shape[0]})")
    x = wte[tokens] + wpe[:T]
    for block in params["h"]:
        x = transformer_block(x, block, n_head)
    x = layer_norm(x, ln_f["weight"], ln_f["bias"])
    return x @ wte.T


def gpt_decode_step(token, params, n_head, caches):
    """one token id, the caches of the positions seen -> logits (V,) of the new position"""
    wte, wpe, ln_f = params["wte"]["weight"], params["wpe"]["weight"], params["ln_f"]
    if len(params["h"]) == 0 or len(caches) != len(params["h"]):
        raise ValueError("gpt_decode_step needs exactly one cache per block")
    T = len(caches[0]) + 1                      # the sequence length once this token is in
    if T > wpe.shape[0]:
        raise ValueError(f"no room left: the caches hold {T - 1} of n_ctx={wpe.shape[0]} positions")
    token = np.asarray(token)
    if token.ndim != 0 or token.dtype.kind not in "iu" or not 0 <= token < wte.shape[0]:
        raise ValueError("token must be a single id in [0, V)")
    x = wte[token] + wpe[T]
    for block, cache in zip(params["h"], caches):
        x = block_decode_step(x, block, n_head, cache)
    x = layer_norm(x, ln_f["weight"], ln_f["bias"])
    return x @ wte.T


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    c = np.max(x, axis=axis, keepdims=True)
    c[~np.isfinite(c)] = 0
    lse = c + np.log(np.sum(np.exp(x - c), axis=axis, keepdims=True))
    return x - lse


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if logits.ndim == 0 or targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} do not match logits {logits.shape}")
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("targets must be a non-empty array of integer ids")
    V = logits.shape[-1]
    if targets.min() < 0 or targets.max() >= V:
        raise ValueError(f"targets must be in [0, {V})")
    flat = log_softmax(logits).reshape(-1, V)
    return -flat[np.arange(flat.shape[0]), targets.reshape(-1)].mean()


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= params["wpe"]["weight"].shape[0]:
        raise ValueError("lm_loss needs between 2 and n_ctx tokens per sequence")
    logits = gpt_forward(tokens[..., :-1], params, n_head)
    return cross_entropy(logits, tokens[..., 1:])
