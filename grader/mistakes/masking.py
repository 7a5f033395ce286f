"""Classic masking mistakes (002 "The Causal Mask" and pitfall 2, "Incorrect Mask Application")."""
from __future__ import annotations

import numpy as np

from ..compare import Mistake
from . import as_float

TRIU = Mistake(
    "causal_mask_triu",
    "the upper triangle was kept (np.triu): each query sees the future instead of the past",
    "Row i is the query, column j the key: query i may look at keys j <= i, on and below the diagonal.",
)
STRICT_TRIL = Mistake(
    "causal_mask_strict",
    "the diagonal is masked out: a token is not allowed to attend to itself",
    "Position 0 must see itself (002's drawing: 'Position 0 only sees itself'); keep the diagonal.",
)
INVERTED_CAUSAL = Mistake(
    "causal_mask_inverted",
    "True and False are swapped: True must mean 'may attend'",
    "In this kit a mask is True where a query MAY attend to a key.",
)
PADDING_OFF_BY_ONE = Mistake(
    "padding_mask_off_by_one",
    "one position too many is allowed: position t == length counts as a real token",
    "A sequence of length L has real tokens at positions 0 .. L-1 only.",
)
PADDING_INVERTED = Mistake(
    "padding_mask_inverted",
    "True marks the padding instead of the real tokens",
    "In this kit a mask is True where attention is allowed, i.e. at the real tokens.",
)
APPLY_INVERTED = Mistake(
    "apply_mask_inverted",
    "-inf was put where the mask is True (allowed) instead of where it is False",
    "True means 'may attend': those scores stay, the False ones are removed.",
)
APPLY_ZERO = Mistake(
    "apply_mask_zero",
    "forbidden scores were set to 0 (scores * mask) instead of -inf",
    "exp(0) is 1, so a zeroed score still gets weight after the softmax. Which score value does exp() send to 0?",
)
APPLY_LARGE_NEGATIVE = Mistake(
    "apply_mask_large_negative",
    "forbidden scores were set to a large negative number instead of -inf",
    "A finite number still gets a tiny weight, and a row with no allowed key becomes uniform "
    "instead of zero; use -inf.",
)
CAUSAL_VARIANTS = {
    TRIU.id: lambda n: np.triu(np.ones((n, n), dtype=bool)),
    STRICT_TRIL.id: lambda n: np.tril(np.ones((n, n), dtype=bool), k=-1),
    INVERTED_CAUSAL.id: lambda n: ~np.tril(np.ones((n, n), dtype=bool)),
}


def causal_candidates(n: int) -> list:
    """(Mistake, lazy output) pairs for ``causal_mask(n)``."""
    return [(TRIU, lambda: CAUSAL_VARIANTS[TRIU.id](n)), (STRICT_TRIL, lambda: CAUSAL_VARIANTS[STRICT_TRIL.id](n)),
            (INVERTED_CAUSAL, lambda: CAUSAL_VARIANTS[INVERTED_CAUSAL.id](n)),
            (STRICT_TRIL, lambda: np.triu(np.ones((n, n), dtype=bool), k=1))]  # strict and flipped: still the diagonal


def padding_candidates(lengths, max_len: int) -> list:
    positions = np.arange(max_len)[None, :]
    lengths = np.asarray(lengths)[:, None]
    return [(PADDING_OFF_BY_ONE, lambda: positions <= lengths), (PADDING_INVERTED, lambda: positions >= lengths),
            (PADDING_OFF_BY_ONE, lambda: positions > lengths)]


def apply_candidates(scores, mask) -> list:
    """(Mistake, lazy output) pairs for ``apply_mask(scores, mask)``, computed from the inputs alone.

    The large-negative mistake depends on the number the student chose (-1e9, -1e4...), so it
    is not here: checks pair :data:`APPLY_LARGE_NEGATIVE` with
    :func:`grader.checks.common.large_negative_fill` of the student's value and the expected one.
    """
    scores = as_float(scores)
    mask = np.asarray(mask, dtype=bool)
    return [
        (APPLY_INVERTED, lambda: np.where(mask, -np.inf, scores)),
        (APPLY_ZERO, lambda: np.where(mask, scores, 0.0)),
    ]
