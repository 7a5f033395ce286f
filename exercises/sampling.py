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
    # TODO: implement sampling_probs: temperature, top-k, softmax, the top-p nucleus, renormalise
    raise NotImplementedError('implement sampling_probs: temperature, top-k, softmax, the top-p nucleus, renormalise')


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
    # TODO: implement sample_token: argmax at temperature 0, else one rng.random() through the CDF
    raise NotImplementedError('implement sample_token: argmax at temperature 0, else one rng.random() through the CDF')


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
    # TODO: implement generate: validate first, then one sample_token per new token (cached or full passes)
    raise NotImplementedError('implement generate: validate first, then one sample_token per new token (cached or full passes)')
