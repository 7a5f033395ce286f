"""A sampler that draws with `rng.multinomial(1, probs)` and takes the argmax of the one-hot count vector.

Bug: multinomial takes its own number of random draws (binomials), not one uniform number, so the same seed gives
other text than rng.choice and every other correct implementation."""
import numbers

import numpy as np

from .gpt import gpt_decode_step, gpt_forward
from .kv_cache import KVCache

EXPECTED = {"exercise": "sampling", "mistake": "sampling_not_one_draw"}


def _check(temperature, top_k, top_p):
    if not isinstance(temperature, numbers.Real) or not np.isfinite(temperature) or temperature < 0:
        raise ValueError(f"bad temperature {temperature!r}")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, numbers.Integral) or top_k < 1):
        raise ValueError(f"bad top_k {top_k!r}")
    if top_p is not None and not (isinstance(top_p, numbers.Real) and 0 < top_p <= 1):
        raise ValueError(f"bad top_p {top_p!r}")


def _softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _top_k(z, k):
    if k is None or k >= z.shape[-1]:
        return z
    kth = np.sort(z, axis=-1)[..., -k][..., None]
    return np.where(z < kth, -np.inf, z)


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    _check(temperature, top_k, top_p)
    logits = np.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(np.float64)
    if temperature == 0:
        probs = np.zeros_like(logits)
        np.put_along_axis(probs, logits.argmax(axis=-1)[..., None], 1.0, axis=-1)
        return probs
    probs = _softmax(_top_k(logits / float(temperature), top_k))
    if top_p is None or top_p == 1:
        return probs
    return _top_p(probs, top_p)


def _top_p(probs, p):
    order = np.argsort(-probs, axis=-1, kind="stable")
    ranked = np.take_along_axis(probs, order, axis=-1)
    mass = np.cumsum(ranked, axis=-1)
    ranked = np.where(mass - ranked > p, 0.0, ranked)   # drop a token once the mass above it is past p
    out = np.zeros_like(probs)
    np.put_along_axis(out, order, ranked, axis=-1)
    return out / out.sum(axis=-1, keepdims=True)


def sample_token(logits, rng=None, temperature=1.0, top_k=None, top_p=None):
    logits = np.asarray(logits)
    if logits.ndim != 1:
        raise ValueError("one position of logits, shape (V,)")
    probs = sampling_probs(logits, temperature, top_k, top_p)
    if temperature == 0:
        return int(np.argmax(logits))
    if rng is None:
        raise ValueError("sampling needs an rng")
    return int(np.argmax(rng.multinomial(1, probs.astype(np.float64))))


def generate(prompt, params, n_head, n_new, rng=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    prompt = np.asarray(prompt)
    V, n_ctx = params["wte"]["weight"].shape[0], params["wpe"]["weight"].shape[0]
    if prompt.ndim != 1 or prompt.size == 0 or prompt.dtype.kind not in "iu":
        raise ValueError("prompt must be a non-empty 1-D array of ids")
    if prompt.min() < 0 or prompt.max() >= V or not isinstance(n_new, int) or n_new < 0:
        raise ValueError("ids must lie in [0, V) and n_new must be >= 0")
    if prompt.size + n_new > n_ctx or (temperature > 0 and rng is None):
        raise ValueError("too long for the context, or no rng")
    tokens = [int(t) for t in prompt]
    if n_new == 0:
        return np.array(tokens, dtype=np.int64)
    if use_cache:
        caches = [KVCache() for _ in params["h"]]
        for t in tokens:
            logits = gpt_decode_step(t, params, n_head, caches)
    for i in range(n_new):
        if not use_cache:
            logits = gpt_forward(np.array(tokens), params, n_head)[-1]
        tokens.append(sample_token(logits, rng, temperature, top_k, top_p))
        if use_cache and i + 1 < n_new:
            logits = gpt_decode_step(tokens[-1], params, n_head, caches)
    return np.array(tokens, dtype=np.int64)
