"""Held-out #4: a decoding module in the style of HuggingFace's logits warpers, ported to NumPy, whose author
applied the temperature to the probabilities: top-k on the logits, a softmax, then ``probs / temperature`` and a
renormalisation, which gives the same distribution back for every temperature. Top-p then works on the logs of
those probabilities. Greedy decoding at temperature 0, top-k (ties kept), top-p and generation are correct."""
import math
import numbers

import numpy as np

from .gpt import gpt_decode_step, gpt_forward
from .kv_cache import KVCache

EXPECTED = {"exercise": "sampling", "mistake": "sampling_temperature_no_effect"}


def _validate(temperature, top_k, top_p):
    if not isinstance(temperature, numbers.Real) or isinstance(temperature, bool) or not math.isfinite(temperature) \
            or temperature < 0:
        raise ValueError(f"temperature={temperature!r}: a finite number >= 0 is expected")
    if top_k is not None and (not isinstance(top_k, numbers.Integral) or isinstance(top_k, bool) or top_k < 1):
        raise ValueError(f"top_k={top_k!r}: None or an integer >= 1 is expected")
    if top_p is not None and (not isinstance(top_p, numbers.Real) or isinstance(top_p, bool) or not 0 < top_p <= 1):
        raise ValueError(f"top_p={top_p!r}: None or a number in (0, 1] is expected")


def _softmax(scores):
    top = np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(top), top, 0))
    return e / np.sum(e, axis=-1, keepdims=True)


def _greedy(logits):
    probs = np.zeros_like(logits)
    np.put_along_axis(probs, np.argmax(logits, axis=-1)[..., None], 1, axis=-1)
    return probs


def _temperature_warper(scores, temperature):
    return scores / float(temperature)


def _top_k_warper(scores, top_k):
    V = scores.shape[-1]
    if top_k is None or top_k >= V:
        return scores
    kth = np.sort(scores, axis=-1)[..., V - top_k, None]
    return np.where(scores < kth, -np.inf, scores)


def _top_p_warper(scores, top_p):
    """Logits outside the nucleus set to -inf (the nucleus: every token whose preceding mass is below top_p)."""
    if top_p is None or top_p >= 1:
        return scores
    probs = _softmax(scores)
    order = np.argsort(-probs, axis=-1, kind="stable")
    sorted_probs = np.take_along_axis(probs, order, axis=-1)
    remove_sorted = np.cumsum(sorted_probs, axis=-1) - sorted_probs >= top_p
    remove = np.zeros_like(remove_sorted)
    np.put_along_axis(remove, order, remove_sorted, axis=-1)
    return np.where(remove, -np.inf, scores)


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    _validate(temperature, top_k, top_p)
    logits = np.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(np.float64)
    if temperature == 0:
        return _greedy(logits)
    scores = _top_k_warper(logits, top_k)
    probs = _softmax(scores)
    probs = probs / float(temperature)              # temperature on the distribution
    probs = probs / np.sum(probs, axis=-1, keepdims=True)
    with np.errstate(divide="ignore"):
        scores = _top_p_warper(np.log(probs), top_p)
    return _softmax(scores)


def sample_token(logits, rng=None, temperature=1.0, top_k=None, top_p=None):
    logits = np.asarray(logits)
    if logits.ndim != 1:
        raise ValueError(f"logits of shape (V,) expected, got {logits.shape}")
    probs = sampling_probs(logits, temperature, top_k, top_p)
    if temperature == 0:
        return int(np.argmax(probs))
    if rng is None:
        raise ValueError("temperature > 0 samples: pass rng=np.random.default_rng(seed)")
    cdf = np.cumsum(probs, dtype=np.float64)
    return int(np.searchsorted(cdf / cdf[-1], rng.random(), side="right"))


def generate(prompt, params, n_head, n_new, rng=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    prompt = np.asarray(prompt)
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]
    if prompt.ndim != 1 or not prompt.size or prompt.dtype.kind not in "iu":
        raise ValueError("prompt: a non-empty 1-D array of token ids is expected")
    if prompt.min() < 0 or prompt.max() >= wte.shape[0]:
        raise ValueError(f"prompt: ids must lie in [0, {wte.shape[0]})")
    if not isinstance(n_new, numbers.Integral) or isinstance(n_new, bool) or n_new < 0:
        raise ValueError("n_new: an integer >= 0 is expected")
    if len(prompt) + n_new > wpe.shape[0]:
        raise ValueError(f"{len(prompt)} + {n_new} tokens exceed n_ctx = {wpe.shape[0]}")
    if isinstance(temperature, numbers.Real) and temperature > 0 and rng is None:
        raise ValueError("temperature > 0 samples: pass rng=np.random.default_rng(seed)")
    ids = prompt.astype(np.int64).tolist()
    if use_cache and n_new:
        caches = [KVCache() for _ in params["h"]]
        next_logits = None
        for t in ids:
            next_logits = gpt_decode_step(t, params, n_head, caches)
        for _ in range(n_new - 1):
            ids.append(sample_token(next_logits, rng, temperature, top_k, top_p))
            next_logits = gpt_decode_step(ids[-1], params, n_head, caches)
        ids.append(sample_token(next_logits, rng, temperature, top_k, top_p))
    else:
        for _ in range(n_new):
            next_logits = gpt_forward(np.asarray(ids, dtype=np.int64), params, n_head)[-1]
            ids.append(sample_token(next_logits, rng, temperature, top_k, top_p))
    return np.asarray(ids, dtype=np.int64)
