"""Exercise ``sampling``: from logits to text (temperature, top-k, top-p, one seeded draw, cached generation).

A decoding strategy is a distribution built from the last position's logits and one draw from it:

    z = logits / temperature  ->  keep the k largest z  ->  p = softmax(z)  ->  keep the smallest set of
    most likely tokens whose mass reaches top_p  ->  renormalise  ->  one draw u = rng.random(), inverse CDF

(the order of HuggingFace's temperature, top-k and top-p warpers). Temperature 0 is greedy decoding and
draws nothing. ``generate`` keeps one KV cache per layer, so each new token costs one decode step instead
of a forward pass over the whole sequence. Sources: "The Curious Case of Neural Text Degeneration"
(Holtzman et al., 2019) for top-p; "Language Models are Unsupervised Multitask Learners" (2019).
"""
import math
import numbers

import numpy as np

from .gpt import gpt_decode_step, gpt_forward
from .kv_cache import KVCache
from .softmax import softmax


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    """The distribution one sampling step draws from.

    Parameters
    ----------
    logits : array_like, shape (..., V)
    temperature : float, optional
        ``>= 0``; the logits are divided by it. 0 gives a one-hot on the first largest logit.
    top_k : int, optional
        Keep the tokens whose scaled logit is at least the k-th largest (ties with it stay); None, or
        ``top_k >= V``, keeps all.
    top_p : float, optional
        In ``(0, 1]``: after the softmax over the kept tokens, keep the smallest set of most likely tokens
        whose mass reaches ``top_p`` (the token that crosses it included), i.e. every token whose preceding
        mass (the sum of the probabilities ranked above it) is below ``top_p``. None or 1: off.

    Returns
    -------
    numpy.ndarray, shape (..., V)
        Rows that sum to 1; every dropped token has exactly 0. The logits' float dtype (float64 for integer
        or list input).

    Raises
    ------
    ValueError
        If ``temperature`` is negative or not finite, ``top_k`` is not an integer >= 1, or ``top_p`` lies
        outside ``(0, 1]``.
    """
    ### BEGIN SOLUTION implement sampling_probs: temperature, top-k, softmax, the top-p nucleus, renormalise
    if not isinstance(temperature, numbers.Real) or not math.isfinite(temperature) or temperature < 0:
        raise ValueError(f"temperature must be a finite number >= 0; got {temperature!r}")
    if top_k is not None and (not isinstance(top_k, numbers.Integral) or isinstance(top_k, bool) or top_k < 1):
        raise ValueError(f"top_k must be None or an integer >= 1; got {top_k!r}")
    if top_p is not None and (not isinstance(top_p, numbers.Real) or not 0 < top_p <= 1):
        raise ValueError(f"top_p must be None or a number in (0, 1]; got {top_p!r}")
    logits = np.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(np.float64)
    V = logits.shape[-1]
    # anchor: sampling_probs.if_temperature
    if temperature == 0:                                   # greedy: all the mass on the first largest logit
        probs = np.zeros_like(logits)                      # (..., V)
        np.put_along_axis(probs, np.argmax(logits, axis=-1)[..., None], 1, axis=-1)
        return probs
    # anchor: sampling_probs.z
    z = logits / float(temperature)                        # (..., V); a Python float keeps float32
    if top_k is not None and top_k < V:
        # anchor: sampling_probs.kth_largest
        kth_largest = np.partition(z, V - top_k, axis=-1)[..., V - top_k, None]  # (..., 1)
        # anchor: sampling_probs.z_where
        z = np.where(z >= kth_largest, z, -np.inf)         # ties with the k-th largest stay
    probs = softmax(z, axis=-1)                            # (..., V): exactly 0 where z is -inf
    if top_p is not None and top_p < 1:
        # anchor: sampling_probs.order
        order = np.argsort(-probs, axis=-1, kind="stable")           # (..., V): most likely first
        # anchor: sampling_probs.ranked
        ranked = np.take_along_axis(probs, order, axis=-1)           # (..., V) descending
        # anchor: sampling_probs.preceding
        preceding = np.cumsum(ranked, axis=-1) - ranked              # mass ranked above each token
        keep = np.empty(ranked.shape, dtype=bool)
        np.put_along_axis(keep, order, preceding < top_p, axis=-1)   # back to vocabulary order
        probs = np.where(keep, probs, 0)
        # anchor: sampling_probs.probs
        probs = probs / np.sum(probs, axis=-1, keepdims=True)        # renormalise the nucleus
    return probs
    ### END SOLUTION


def sample_token(logits, rng=None, temperature=1.0, top_k=None, top_p=None):
    """One token drawn from the last position's logits.

    Parameters
    ----------
    logits : array_like, shape (V,)
    rng : numpy.random.Generator, optional
        The only source of randomness; needed when ``temperature > 0``.
    temperature, top_k, top_p
        As in :func:`sampling_probs`.

    Returns
    -------
    int
        ``temperature == 0``: the first index of the largest logit (``rng`` is not used). Otherwise exactly
        one draw, ``rng.choice(V, p=sampling_probs(logits, ...))``: ``u = rng.random()`` and the first index
        ``i`` with ``cumsum(p)[i] / cumsum(p)[-1] > u``.

    Raises
    ------
    ValueError
        If ``logits`` is not 1-D, ``temperature > 0`` and ``rng`` is None, and as :func:`sampling_probs`.
    """
    ### BEGIN SOLUTION implement sample_token: argmax at temperature 0, else one rng.random() through the CDF
    logits = np.asarray(logits)
    if logits.ndim != 1:
        raise ValueError(f"sample_token takes one position's logits of shape (V,); got shape {logits.shape}")
    probs = sampling_probs(logits, temperature, top_k, top_p)   # (V,); validates the arguments
    if temperature == 0:
        return int(np.argmax(probs))
    if rng is None:
        raise ValueError("sampling at temperature > 0 needs rng, a numpy.random.Generator")
    cdf = np.cumsum(probs.astype(np.float64))   # (V,), in float64 as rng.choice computes it
    # anchor: sample_token.u
    u = rng.random()                            # the one draw, in [0, 1)
    return int(np.searchsorted(cdf / cdf[-1], u, side="right"))
    ### END SOLUTION


def generate(prompt, params, n_head, n_new, rng=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    """The prompt followed by ``n_new`` generated tokens.

    Parameters
    ----------
    prompt : array_like of int, shape (P,)
        ``P >= 1`` token ids in ``[0, V)``.
    params : dict
        The model's tree (see ``gpt.gpt_forward``).
    n_head : int
    n_new : int
        ``>= 0`` tokens to generate; ``P + n_new <= n_ctx``.
    rng, temperature, top_k, top_p
        As in :func:`sample_token`; greedy (temperature 0) by default.
    use_cache : bool, optional
        True: one ``KVCache`` per layer; the prompt is stepped through ``gpt_decode_step`` and each new token
        costs one more step (the last new token is not fed back). False: ``gpt_forward`` over the whole
        sequence for every new token. Both give the same tokens for the same seed.

    Returns
    -------
    numpy.ndarray of int64, shape (P + n_new,)

    Raises
    ------
    ValueError
        Before generating anything: an empty or non-1-D prompt, ids outside ``[0, V)``, ``n_new < 0``,
        ``P + n_new > n_ctx``, ``temperature > 0`` with ``rng`` None.
    """
    ### BEGIN SOLUTION implement generate: validate first, then one sample_token per new token (cached or full passes)
    prompt = np.asarray(prompt)
    V, n_ctx = params["wte"]["weight"].shape[0], params["wpe"]["weight"].shape[0]
    if prompt.ndim != 1 or prompt.size == 0 or prompt.dtype.kind not in "iu":
        raise ValueError(f"prompt must be a non-empty 1-D array of token ids; got {prompt.dtype} {prompt.shape}")
    if prompt.min() < 0 or prompt.max() >= V:
        raise ValueError(f"prompt ids must lie in [0, V={V}); got ids from {prompt.min()} to {prompt.max()}")
    if not isinstance(n_new, numbers.Integral) or n_new < 0:
        raise ValueError(f"n_new must be an integer >= 0; got {n_new!r}")
    if prompt.size + n_new > n_ctx:
        raise ValueError(f"{prompt.size} prompt tokens + n_new={n_new} exceed the model's n_ctx={n_ctx}")
    if isinstance(temperature, numbers.Real) and temperature > 0 and rng is None:
        raise ValueError("sampling at temperature > 0 needs rng, a numpy.random.Generator")
    sequence = [int(token) for token in prompt]
    if use_cache and n_new > 0:
        # anchor: generate.caches
        caches = [KVCache() for _ in params["h"]]           # one cache per block, never shared
        for token in sequence:                              # prefill: the prompt, one position at a time
            logits = gpt_decode_step(token, params, n_head, caches)      # (V,)
        # anchor: generate.for_step
        for step in range(n_new):
            sequence.append(sample_token(logits, rng, temperature, top_k, top_p))
            if step < n_new - 1:                            # the last new token is never fed back
                logits = gpt_decode_step(sequence[-1], params, n_head, caches)
    elif n_new > 0:
        for _ in range(n_new):                              # the O(t^2) baseline: recompute everything
            logits = gpt_forward(np.array(sequence), params, n_head)[-1]  # (t, V) -> (V,)
            sequence.append(sample_token(logits, rng, temperature, top_k, top_p))
    return np.array(sequence, dtype=np.int64)
    ### END SOLUTION
