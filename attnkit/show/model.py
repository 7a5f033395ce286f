"""The numbers behind the pictures, computed with the reference solutions.

:func:`attention_example` is a toy, untrained multi-head self-attention layer: a seeded random
embedding per distinct (lower-cased) word plus the sinusoidal positional encoding, random
projections ``W_Q, W_K, W_V, W_O``, then ``solutions.multihead.multi_head_self_attention``.
The weights show the mechanics (every row a probability distribution, the causal triangle,
heads that differ), not meaning: nothing was trained.

:func:`alibi_example` and :func:`sliding_window_example` call the reference functions of the
position-bias exercise, whose module is found through the curriculum (the exercise with a task
of that name).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from .errors import NO_SOLUTIONS, ShowError


@dataclass(frozen=True)
class AttentionExample:
    """One sentence through a random multi-head self-attention layer.

    Attributes
    ----------
    tokens : tuple of str, length n
    weights : numpy.ndarray of float64, shape (heads, n, n)
        ``weights[h, i, j]``: how much query token ``i`` attends to key token ``j`` in head ``h``.
    d_model, seed : int
    causal : bool
    """

    tokens: tuple[str, ...]
    weights: np.ndarray
    d_model: int
    seed: int
    causal: bool

    @property
    def heads(self) -> int:
        return self.weights.shape[0]


def _reference():
    try:
        from solutions import masking, multihead, positional
    except ImportError:
        raise ShowError(NO_SOLUTIONS) from None
    return masking, multihead, positional


def attention_example(tokens, heads: int, d_model: int, seed: int = 0, causal: bool = False) -> AttentionExample:
    """Run ``tokens`` through a seeded random multi-head self-attention layer.

    Parameters
    ----------
    tokens : sequence of str, length n >= 1
    heads : int
        Must divide ``d_model``.
    d_model : int
    seed : int
        Seeds the embeddings and the projections: the same arguments give the same weights.
    causal : bool
        Apply the causal mask (query ``i`` sees keys ``j <= i``).

    Returns
    -------
    AttentionExample
        With ``weights`` of shape (heads, n, n).
    """
    masking, multihead, positional = _reference()
    tokens = tuple(tokens)
    rng = np.random.default_rng(seed)
    vocabulary = list(dict.fromkeys(t.lower() for t in tokens))    # distinct words, first occurrence first
    table = rng.standard_normal((len(vocabulary), d_model))        # (vocab, d_model) embedding table
    ids = [vocabulary.index(t.lower()) for t in tokens]
    X = table[ids] + positional.sinusoidal_encoding(len(tokens), d_model)  # (n, d_model)
    scale = 1.0 / np.sqrt(d_model)                                 # keeps X @ W near unit variance
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) * scale for _ in range(4))
    mask = masking.causal_mask(len(tokens)) if causal else None    # (n, n)
    _, weights = multihead.multi_head_self_attention(X, W_Q, W_K, W_V, W_O, heads, mask)  # (heads, n, n)
    return AttentionExample(tokens, weights, d_model, seed, causal)


def positional_encoding(seq_len: int, d_model: int) -> np.ndarray:
    """The sinusoidal positional encoding of the reference solution.

    Returns
    -------
    numpy.ndarray of float64, shape (seq_len, d_model)
    """
    return _reference()[2].sinusoidal_encoding(seq_len, d_model)


@dataclass(frozen=True)
class AlibiExample:
    """The ALiBi bias of every head for ``n`` queries and ``n`` keys.

    Attributes
    ----------
    slopes : numpy.ndarray of float64, shape (heads,)
    bias : numpy.ndarray of float64, shape (heads, n, n)
        ``bias[h, i, j] = -slopes[h] * |i - j|``: added to the scaled score of query ``i`` and key ``j``.
    """

    slopes: np.ndarray
    bias: np.ndarray

    @property
    def heads(self) -> int:
        return self.bias.shape[0]

    def slope_label(self, h: int) -> str:
        """Head ``h``'s slope as people write it: ``1/4``, or ``2^-2.5 = 0.177`` between powers of two."""
        exponent = -float(np.log2(self.slopes[h]))
        if abs(exponent - round(exponent)) < 1e-9:
            return f"1/{2 ** round(exponent)}"
        return f"2^-{exponent:g} = {self.slopes[h]:.3g}"


@dataclass(frozen=True)
class WindowExample:
    """A sliding-window mask, causal and not: ``True`` where query ``i`` may attend to key ``j``.

    Attributes
    ----------
    window : int
    causal, symmetric : numpy.ndarray of bool, shape (n, n)
        ``i - window < j <= i`` and ``|i - j| < window``.
    """

    window: int
    causal: np.ndarray
    symmetric: np.ndarray


def _reference_of(function: str):
    """The reference module (``solutions.<module>``) of the exercise that has a task named ``function``."""
    try:
        from grader import curriculum

        module = next((e.id for e in curriculum.exercises() if any(t.name == function for t in e.tasks)), None)
        if module is not None:
            return importlib.import_module(f"solutions.{module}")
    except ImportError:
        pass
    raise ShowError(NO_SOLUTIONS)


def alibi_example(heads: int, n: int) -> AlibiExample:
    """The reference ``alibi_slopes(heads)`` and ``alibi_bias(heads, n)``.

    Returns
    -------
    AlibiExample
        With ``slopes`` of shape (heads,) and ``bias`` of shape (heads, n, n).
    """
    reference = _reference_of("alibi_bias")
    return AlibiExample(reference.alibi_slopes(heads), reference.alibi_bias(heads, n))


def sliding_window_example(n: int, window: int) -> WindowExample:
    """The reference ``sliding_window_mask(n, window)``, with ``causal=True`` and ``causal=False``.

    Returns
    -------
    WindowExample
        With two boolean masks of shape (n, n).
    """
    reference = _reference_of("sliding_window_mask")
    return WindowExample(window, reference.sliding_window_mask(n, window, causal=True),
                         reference.sliding_window_mask(n, window, causal=False))
