"""Held-out #4: a NumPy sampling module written after torch code that draws with ``torch.multinomial(probs, 1)``:
ported as ``rng.multinomial(1, p).argmax()``, a draw from the caller's generator, but not the one ``rng.random()``
through the inverse CDF that ``rng.choice(V, p=p)`` makes (NumPy's multinomial takes a binomial draw per category),
so the same seed gives other tokens than every other correct implementation. The filters (temperature, top-k with
ties, top-p by the preceding mass) and the cached generation loop are correct."""
import math
import numbers

import numpy as np

from .gpt import gpt_decode_step, gpt_forward
from .kv_cache import KVCache

EXPECTED = {"exercise": "sampling", "mistake": "sampling_not_one_draw"}


def _check_settings(temperature, top_k, top_p):
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real) or not math.isfinite(temperature):
        raise ValueError(f"temperature must be a finite number, not {temperature!r}")
    if temperature < 0:
        raise ValueError(f"temperature must be >= 0, not {temperature!r}")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, numbers.Integral) or top_k < 1):
        raise ValueError(f"top_k must be None or a positive integer, not {top_k!r}")
    if top_p is not None and (isinstance(top_p, bool) or not isinstance(top_p, numbers.Real)
                              or not 0 < top_p <= 1):
        raise ValueError(f"top_p must be None or in (0, 1], not {top_p!r}")


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    """logits (..., V) -> probabilities (..., V) after temperature, top-k and top-p."""
    _check_settings(temperature, top_k, top_p)
    logits = np.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(np.float64)
    vocab = logits.shape[-1]
    if temperature == 0:
        out = np.zeros_like(logits)
        np.put_along_axis(out, logits.argmax(axis=-1)[..., None], 1.0, axis=-1)
        return out
    z = logits / float(temperature)
    if top_k is not None and top_k < vocab:
        v = np.sort(z, axis=-1)[..., [vocab - top_k]]        # the k-th largest, (..., 1)
        z = np.where(z < v, -np.inf, z)
    peak = z.max(axis=-1, keepdims=True)
    e = np.exp(z - np.where(np.isfinite(peak), peak, 0))
    probs = e / e.sum(axis=-1, keepdims=True)
    if top_p is not None and top_p < 1:
        idx = np.argsort(-probs, axis=-1, kind="stable")
        p_sorted = np.take_along_axis(probs, idx, axis=-1)
        mass_before = np.concatenate([np.zeros_like(p_sorted[..., :1]), np.cumsum(p_sorted, axis=-1)[..., :-1]],
                                     axis=-1)
        keep = np.zeros(probs.shape, dtype=bool)
        np.put_along_axis(keep, idx, mass_before < top_p, axis=-1)
        probs = np.where(keep, probs, 0)
        probs = probs / probs.sum(axis=-1, keepdims=True)
    return probs


def sample_token(logits, rng=None, temperature=1.0, top_k=None, top_p=None):
    logits = np.asarray(logits)
    if logits.ndim != 1:
        raise ValueError(f"sample_token expects logits of shape (V,), got {logits.shape}")
    probs = sampling_probs(logits, temperature, top_k, top_p)
    if temperature == 0:
        return int(probs.argmax())
    if rng is None:
        raise ValueError("an rng (numpy.random.Generator) is needed when temperature > 0")
    p = probs.astype(np.float64)
    counts = rng.multinomial(1, p / p.sum())      # like torch.multinomial(probs, num_samples=1)
    return int(np.argmax(counts))


def generate(prompt, params, n_head, n_new, rng=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    idx = np.asarray(prompt)
    vocab, block_size = params["wte"]["weight"].shape[0], params["wpe"]["weight"].shape[0]
    if idx.ndim != 1 or idx.size == 0 or idx.dtype.kind not in "iu":
        raise ValueError("prompt must be a non-empty 1-D integer array")
    if idx.min() < 0 or idx.max() >= vocab:
        raise ValueError(f"prompt ids must be in [0, {vocab})")
    if isinstance(n_new, bool) or not isinstance(n_new, numbers.Integral) or n_new < 0:
        raise ValueError("n_new must be a non-negative integer")
    if idx.size + n_new > block_size:
        raise ValueError(f"{idx.size} + {n_new} tokens do not fit in the context of {block_size}")
    if isinstance(temperature, numbers.Real) and temperature > 0 and rng is None:
        raise ValueError("an rng is needed when temperature > 0")
    out = [int(t) for t in idx]
    if n_new == 0:
        return np.asarray(out, dtype=np.int64)
    if not use_cache:
        for _ in range(n_new):
            logits = gpt_forward(np.asarray(out), params, n_head)[-1]
            out.append(sample_token(logits, rng, temperature, top_k, top_p))
        return np.asarray(out, dtype=np.int64)
    caches = [KVCache() for _ in range(len(params["h"]))]
    logits = None
    for t in out:
        logits = gpt_decode_step(t, params, n_head, caches)
    for i in range(n_new):
        out.append(sample_token(logits, rng, temperature, top_k, top_p))
        if i + 1 < n_new:
            logits = gpt_decode_step(out[-1], params, n_head, caches)
    return np.asarray(out, dtype=np.int64)
