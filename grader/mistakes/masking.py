"""Classic masking mistakes: causal and padding masks, and applying a mask to the scores."""
from __future__ import annotations

import numpy as np

from .anchors import Edit
from .model import Mistake

CAUSAL = "np.tril(np.ones((n, n), dtype=bool))"
PADDING = "positions[None, :] < lengths[:, None]"
APPLY = "np.where(np.asarray(mask, dtype=bool), scores, -np.inf)"


def large_negative_fill(call, got, expected, limit: float = -1e4) -> np.ndarray | None:
    """``expected`` with the student's entries where it is -inf, when all of those are finite and <= ``limit``.

    What the student's value is when the only mistake is the finite number they chose (-1e9,
    -1e4...) for the forbidden scores; None when a forbidden entry is -inf, NaN or not very negative.
    """
    expected = np.asarray(expected)
    if got.shape != expected.shape:
        return None
    forbidden = np.isneginf(expected)
    chosen = got[forbidden]
    if chosen.size == 0 or not np.all(np.isfinite(chosen)) or not np.all(chosen <= limit):
        return None
    return np.where(forbidden, got, expected)


TRIU = Mistake(
    id="causal_mask_triu",
    functions=("causal_mask",),
    looks_like="the upper triangle is True: each query sees the future instead of the past",
    hint="Row i is the query, column j the key: which keys j may query i look at, the earlier or the later ones?",
    patch=(Edit("causal_mask.return", CAUSAL, "np.triu(np.ones((n, n), dtype=bool))"),),
)
STRICT_TRIL = Mistake(
    id="causal_mask_strict",
    functions=("causal_mask",),
    looks_like="the diagonal is False: a token is not allowed to attend to itself",
    hint="Position 0 has no past, yet its row must allow one key. Which one?",
    patch=(Edit("causal_mask.return", CAUSAL, "np.tril(np.ones((n, n), dtype=bool), k=-1)"),),
)
INVERTED_CAUSAL = Mistake(
    id="causal_mask_inverted",
    functions=("causal_mask",),
    looks_like="True and False are swapped: the mask is True exactly where attention is forbidden",
    hint="In this kit a mask is True where a query MAY attend to a key.",
    patch=(Edit("causal_mask.return", CAUSAL, "~np.tril(np.ones((n, n), dtype=bool))"),),
)
PADDING_OFF_BY_ONE = Mistake(
    id="padding_mask_off_by_one",
    functions=("padding_mask",),
    looks_like="one position too many is allowed: position t == length counts as a real token",
    hint="A sequence of length L has real tokens at positions 0 .. L-1 only.",
    patch=(Edit("padding_mask.return", PADDING, "positions[None, :] <= lengths[:, None]"),),
)
PADDING_INVERTED = Mistake(
    id="padding_mask_inverted",
    functions=("padding_mask",),
    looks_like="True marks the padding instead of the real tokens",
    hint="In this kit a mask is True where attention is allowed: at the real tokens.",
    patch=(Edit("padding_mask.return", PADDING, "positions[None, :] >= lengths[:, None]"),),
)
APPLY_INVERTED = Mistake(
    id="apply_mask_inverted",
    functions=("apply_mask",),
    looks_like="-inf landed where the mask is True (allowed) and the forbidden scores survived",
    hint="True means 'may attend': those scores stay, and only the False ones are removed.",
    patch=(Edit("apply_mask.return", APPLY, "np.where(np.asarray(mask, dtype=bool), -np.inf, scores)"),),
)
APPLY_ZERO = Mistake(
    id="apply_mask_zero",
    functions=("apply_mask",),
    looks_like="forbidden scores became 0, which still gets weight after the softmax",
    hint="exp(0) is 1, so a zeroed score still gets weight. Which score value does exp() send to 0?",
    patch=(Edit("apply_mask.return", APPLY, "np.where(np.asarray(mask, dtype=bool), scores, 0.0)"),),
)
APPLY_LARGE_NEGATIVE = Mistake(
    id="apply_mask_large_negative",
    functions=("apply_mask",),
    looks_like="forbidden scores hold a large finite negative number, not -inf",
    hint="A finite number still gets a tiny weight, and a row with no allowed key would come out uniform "
         "instead of zero. Which value is below every finite score?",
    compute=large_negative_fill,
    mutant=(Edit("apply_mask.return", APPLY, "np.where(np.asarray(mask, dtype=bool), scores, -1e9)"),),
)
CAUSAL_ADDITIVE_FLOAT = Mistake(
    id="causal_mask_additive_float",
    functions=("causal_mask",),
    looks_like="an additive float mask (0 where allowed, -inf where forbidden) came back instead of a boolean one",
    hint="In this kit a mask answers 'may this query attend to this key?' with True or False.",
    patch=(Edit("causal_mask.return", CAUSAL, "np.where(np.tril(np.ones((n, n), dtype=bool)), 0.0, -np.inf)"),),
)
APPLY_ADDED = Mistake(
    id="apply_mask_added",
    functions=("apply_mask",),
    looks_like="the boolean mask was added to the scores (allowed scores +1) and nothing was removed",
    hint="Adding a mask works only for a mask of 0 and -inf. What should a False entry turn its score into?",
    patch=(Edit("apply_mask.return", APPLY, "scores + np.asarray(mask, dtype=scores.dtype)"),),
)
APPLY_MODIFIES_INPUT = Mistake(
    id="apply_mask_modifies_input",
    functions=("apply_mask",),
    looks_like="the caller's scores were overwritten with -inf: apply_mask worked in place",
    hint="apply_mask is asked for a masked copy; the caller's scores must come back unchanged.",
    mutant=(Edit("apply_mask.return",
                 APPLY, "np.copyto(scores, -np.inf, where=~np.asarray(mask, dtype=bool)) or scores"),),
)
