"""Classic scaled dot-product attention mistakes (002 pitfalls 1 and 2; 003's steps)."""
from __future__ import annotations

import math

import numpy as np

from ..compare import Mistake
from . import as_float
from .softmax import stable

NO_SCALE = Mistake(
    "attention_no_scale",
    "the scores were not divided by sqrt(d_k)",
    "002's pitfall 1: dot products grow with the dimension. Scale the scores before the softmax.",
)
DIVIDE_BY_DK = Mistake(
    "attention_divide_by_dk",
    "the scores were divided by d_k instead of sqrt(d_k)",
    "The scale keeps the variance of a dot product of d_k terms near 1: the square root of d_k.",
)
SCALE_BY_DV = Mistake(
    "attention_scale_by_dv",
    "the scores were scaled with the value dimension d_v instead of the key dimension d_k",
    "The scale comes from the size of the vectors in the dot product: queries and keys.",
)
WRONG_AXIS = Mistake(
    "attention_softmax_wrong_axis",
    "the softmax normalised over the queries (each column sums to 1) instead of over the keys",
    "Each query's weights over the keys must sum to 1: normalise each row of the score matrix.",
)
MASK_AFTER_SOFTMAX = Mistake(
    "attention_mask_after_softmax",
    "the mask was applied to the weights after the softmax (weights * mask), so rows no longer sum to 1",
    "002's pitfall 2: mask the scores before the softmax, with a value exp() turns into 0.",
)
MASK_AFTER_SOFTMAX_RENORMALISED = Mistake(
    "attention_mask_after_softmax_renormalised",
    "the weights were masked and renormalised after the softmax, which gives 0/0 = NaN for a query with no allowed key",
    "Mask the scores before the softmax; a query with no allowed key must get zero weights and a zero output.",
)
INVERTED_MASK = Mistake(
    "attention_inverted_mask",
    "the mask was applied inverted: queries attended exactly the keys they were forbidden",
    "True means 'may attend': remove the scores where the mask is False.",
)
MASK_ZERO = Mistake(
    "attention_mask_zero",
    "forbidden scores were set to 0 instead of -inf before the softmax",
    "exp(0) is 1, so a zeroed score still gets weight. Which score value does exp() send to 0?",
)
LARGE_NEGATIVE = Mistake(
    "attention_mask_large_negative",
    "a query with no allowed key got uniform weights: forbidden scores were set to a large finite number, not -inf",
    "Use -inf for forbidden scores, and make an all -inf row come out as zeros.",
)
FULLY_MASKED_NAN = Mistake(
    "attention_fully_masked_nan",
    "a query with no allowed key came out as NaN",
    "A row of scores that is entirely -inf must give zero weights (and so a zero output), not 0/0.",
)


def variant(Q, K, V, mask=None, *, scale="sqrt", axis=-1, mask_mode="before"):
    """(output, weights) of scaled dot-product attention done with one deliberate mistake."""
    Q, K, V = as_float(Q), as_float(K), as_float(V)
    d_k, d_v = Q.shape[-1], V.shape[-1]
    factor = {"sqrt": 1 / math.sqrt(d_k), "none": 1.0, "dk": 1 / d_k, "dv": 1 / math.sqrt(d_v)}[scale]
    with np.errstate(all="ignore"):
        scores = (Q @ np.swapaxes(K, -1, -2)) * factor
        allowed = None if mask is None else np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if allowed is not None:
            if mask_mode == "before":
                scores = np.where(allowed, scores, -np.inf)
            elif mask_mode == "inverted":
                scores = np.where(allowed, -np.inf, scores)
            elif mask_mode == "zero":
                scores = np.where(allowed, scores, 0.0)
            elif mask_mode == "large_negative":
                scores = np.where(allowed, scores, -1e9)
            elif mask_mode == "unguarded":
                scores = np.where(allowed, scores, -np.inf)
        if mask_mode == "unguarded":
            e = np.exp(scores - scores.max(axis=axis, keepdims=True))
            weights = e / e.sum(axis=axis, keepdims=True)
        else:
            weights = stable(scores, axis)
        if allowed is not None and mask_mode == "after":
            weights = weights * allowed
        if allowed is not None and mask_mode == "after_renormalised":
            weights = weights * allowed
            weights = weights / weights.sum(axis=-1, keepdims=True)
        return weights @ V, weights


VARIANTS = (
    (NO_SCALE, {"scale": "none"}),
    (DIVIDE_BY_DK, {"scale": "dk"}),
    (WRONG_AXIS, {"axis": -2}),
    (SCALE_BY_DV, {"scale": "dv"}),
)
MASK_VARIANTS = (
    (MASK_AFTER_SOFTMAX, {"mask_mode": "after"}),
    (MASK_AFTER_SOFTMAX_RENORMALISED, {"mask_mode": "after_renormalised"}),
    (INVERTED_MASK, {"mask_mode": "inverted"}),
    (MASK_ZERO, {"mask_mode": "zero"}),
    (LARGE_NEGATIVE, {"mask_mode": "large_negative"}),
    (FULLY_MASKED_NAN, {"mask_mode": "unguarded"}),
)


def candidates(Q, K, V, mask=None, part: int = 0) -> list:
    """(Mistake, lazy output) pairs for part ``part`` (0 output, 1 weights) of ``sdpa(Q, K, V, mask)``."""
    pairs = [(mistake, (lambda kw=kw: variant(Q, K, V, mask, **kw)[part])) for mistake, kw in VARIANTS]
    if mask is not None:
        pairs = [(mistake, (lambda kw=kw: variant(Q, K, V, mask, **kw)[part])) for mistake, kw in MASK_VARIANTS] + pairs
    return pairs


def self_candidates(X, W_Q, W_K, W_V, mask=None, part: int = 0) -> list:
    X = as_float(X)
    return candidates(X @ as_float(W_Q), X @ as_float(W_K), X @ as_float(W_V), mask, part)
