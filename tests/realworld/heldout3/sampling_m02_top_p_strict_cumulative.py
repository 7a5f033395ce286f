"""Held-out #3: nucleus sampling from a decoding-strategies tutorial: sorted descending, ``cumulative < p`` as the
mask of tokens to keep, so the token whose probability carries the mass past p is dropped."""
import math
import numbers

import numpy as np

from .gpt import gpt_decode_step, gpt_forward
from .kv_cache import KVCache

EXPECTED = {"exercise": "sampling", "mistake": "sampling_top_p_drops_crossing_token"}


def _validate(temperature, top_k, top_p):
    if not isinstance(temperature, numbers.Real) or not math.isfinite(temperature) or temperature < 0:
        raise ValueError("temperature must be a finite number >= 0")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, numbers.Integral) or top_k < 1):
        raise ValueError("top_k must be None or an integer >= 1")
    if top_p is not None and (not isinstance(top_p, numbers.Real) or not 0 < top_p <= 1):
        raise ValueError("top_p must be None or in (0, 1]")


def _softmax(z):
    top = np.max(z, axis=-1, keepdims=True)
    e = np.exp(z - np.where(np.isfinite(top), top, 0))
    return e / e.sum(axis=-1, keepdims=True)


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    _validate(temperature, top_k, top_p)
    logits = np.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(np.float64)
    if temperature == 0:
        probs = np.zeros_like(logits)
        np.put_along_axis(probs, np.argmax(logits, axis=-1)[..., None], 1, axis=-1)
        return probs
    z = logits / float(temperature)
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[..., V - top_k, None]
        z = np.where(z >= kth, z, -np.inf)
    probs = _softmax(z)
    if top_p is not None and top_p < 1:
        probs = _nucleus(probs, top_p)
    return probs


def _nucleus(probs, top_p):
    order = np.argsort(-probs, axis=-1, kind="stable")
    ranked = np.take_along_axis(probs, order, axis=-1)
    keep_ranked = np.cumsum(ranked, axis=-1) < top_p
    keep_ranked[..., 0] = True
    keep = np.empty_like(keep_ranked)
    np.put_along_axis(keep, order, keep_ranked, axis=-1)
    kept = np.where(keep, probs, 0)
    return kept / kept.sum(axis=-1, keepdims=True)


def sample_token(logits, rng=None, temperature=1.0, top_k=None, top_p=None):
    logits = np.asarray(logits)
    if logits.ndim != 1:
        raise ValueError("sample_token takes logits of shape (V,)")
    probs = sampling_probs(logits, temperature, top_k, top_p)
    if temperature == 0:
        return int(np.argmax(probs))
    if rng is None:
        raise ValueError("sampling needs an rng")
    cdf = np.cumsum(probs.astype(np.float64))
    return int(np.searchsorted(cdf / cdf[-1], rng.random(), side="right"))


def generate(prompt, params, n_head, n_new, rng=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    prompt = np.asarray(prompt)
    V, n_ctx = params["wte"]["weight"].shape[0], params["wpe"]["weight"].shape[0]
    if prompt.ndim != 1 or prompt.size == 0 or prompt.dtype.kind not in "iu":
        raise ValueError("prompt must be a non-empty 1-D array of token ids")
    if prompt.min() < 0 or prompt.max() >= V:
        raise ValueError("prompt ids must lie in [0, V)")
    if not isinstance(n_new, numbers.Integral) or n_new < 0:
        raise ValueError("n_new must be an integer >= 0")
    if prompt.size + n_new > n_ctx:
        raise ValueError("the prompt and the new tokens exceed n_ctx")
    if isinstance(temperature, numbers.Real) and temperature > 0 and rng is None:
        raise ValueError("sampling needs an rng")
    tokens = [int(t) for t in prompt]
    if n_new == 0:
        return np.array(tokens, dtype=np.int64)
    if use_cache:
        caches = [KVCache() for _ in params["h"]]
        for t in tokens:
            logits = gpt_decode_step(t, params, n_head, caches)
        for step in range(n_new):
            tokens.append(sample_token(logits, rng, temperature, top_k, top_p))
            if step < n_new - 1:
                logits = gpt_decode_step(tokens[-1], params, n_head, caches)
    else:
        for _ in range(n_new):
            logits = gpt_forward(np.array(tokens), params, n_head)[-1]
            tokens.append(sample_token(logits, rng, temperature, top_k, top_p))
    return np.array(tokens, dtype=np.int64)
