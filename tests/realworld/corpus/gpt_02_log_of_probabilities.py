"""The loss in the style of the classic numpy classifier notes: `probs = softmax(scores)`, then
`-np.log(probs[np.arange(N), y]).mean()`, and log-softmax written as `np.log(softmax(x))`.

Bug: a probability that underflows to 0 gives log(0) = -inf: log-probabilities of unlikely tokens are -inf
instead of about -1000, and a confident model's loss becomes infinite."""
import numpy as np

from .block import block_decode_step, transformer_block
from .layers import layer_norm

EXPECTED = {"exercise": "gpt", "mistake": "gpt_log_of_softmax"}


def _validate(tokens, V, n_ctx):
    tokens = np.asarray(tokens)
    if tokens.dtype.kind not in "iu" or tokens.ndim == 0:
        raise ValueError("tokens must be integer ids")
    if not 1 <= tokens.shape[-1] <= n_ctx:
        raise ValueError("1 <= T <= n_ctx")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= V):
        raise ValueError("ids must lie in [0, V)")
    return tokens


def gpt_forward(tokens, params, n_head):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    inputs = _validate(tokens, *wte.shape[:1], wpe.shape[0])
    x = wte[inputs] + wpe[np.arange(inputs.shape[-1])]
    for block in params["h"]:
        x = transformer_block(x, block, n_head)
    x = layer_norm(x, **{"gamma": params["ln_f"]["weight"], "beta": params["ln_f"]["bias"]})
    return x @ wte.T


def gpt_decode_step(token, params, n_head, caches):
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if len(caches) != len(params["h"]) or not caches:
        raise ValueError("one cache per block")
    t = len(caches[0])
    if t >= wpe.shape[0] or not isinstance(token, (int, np.integer)) or not 0 <= token < wte.shape[0]:
        raise ValueError("no room in the context, or a bad id")
    x = wte[token] + wpe[t]
    for block, cache in zip(params["h"], caches):
        x = block_decode_step(x, block, n_head, cache)
    x = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"])
    return x @ wte.T


def log_softmax(x, axis=-1):
    x = np.asarray(x)
    x = x if x.dtype.kind == "f" else x.astype(np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    with np.errstate(divide="ignore"):
        return np.log(e / np.sum(e, axis=axis, keepdims=True))


def cross_entropy(logits, targets):
    logits, targets = np.asarray(logits), np.asarray(targets)
    if targets.shape != logits.shape[:-1] or targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError("targets must be ids of shape logits.shape[:-1]")
    V = logits.shape[-1]
    if targets.min() < 0 or targets.max() >= V:
        raise ValueError("targets must lie in [0, V)")
    probs = np.exp(log_softmax(logits)).reshape(-1, V)
    with np.errstate(divide="ignore"):
        return -np.log(probs[np.arange(probs.shape[0]), targets.reshape(-1)]).mean()


def lm_loss(tokens, params, n_head):
    tokens = np.asarray(tokens)
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= params["wpe"]["weight"].shape[0]:
        raise ValueError("2 <= T <= n_ctx")
    return cross_entropy(gpt_forward(tokens[..., :-1], params, n_head), tokens[..., 1:])
