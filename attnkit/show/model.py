"""The numbers behind the pictures, computed with the reference solutions.

:func:`attention_example` is a toy, untrained multi-head self-attention layer: a seeded random
embedding per distinct (lower-cased) word plus the sinusoidal positional encoding, random
projections ``W_Q, W_K, W_V, W_O``, then ``solutions.multihead.multi_head_self_attention``.
The weights show the mechanics (every row a probability distribution, the causal triangle,
heads that differ), not meaning: nothing was trained.
"""
from __future__ import annotations

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
