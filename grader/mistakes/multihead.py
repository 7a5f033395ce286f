"""Classic multi-head mistakes (002 "Multi-Head Self-Attention", pitfall 3; 003's two heads)."""
from __future__ import annotations

import math

import numpy as np

from ..compare import Mistake
from . import as_float
from .softmax import stable

SPLIT_NO_TRANSPOSE = Mistake(
    "split_heads_no_transpose",
    "the heads were made with a plain reshape to (..., n_heads, n, d_head), which mixes tokens and heads",
    "Reshape the last axis into (n_heads, d_head) first, while the tokens stay where they are; then move the head axis.",
)
SPLIT_STRIDED = Mistake(
    "split_heads_strided",
    "each head took every n_heads-th column instead of a contiguous block of d_head columns",
    "Head h owns columns h*d_head up to (h+1)*d_head: split the last axis as (n_heads, d_head), in that order.",
)
MERGE_NO_TRANSPOSE = Mistake(
    "merge_heads_no_transpose",
    "the heads were merged with a plain reshape, without moving the token axis back in front of the heads",
    "merge_heads must undo split_heads step by step, in reverse order.",
)
SCALE_D_MODEL = Mistake(
    "multihead_scale_d_model",
    "each head scaled its scores by 1/sqrt(d_model) instead of 1/sqrt(d_head)",
    "Inside a head the dot products have d_head = d_model / n_heads terms: scale by the size of one head.",
)
NO_SCALE = Mistake(
    "multihead_no_scale",
    "the heads' scores were not divided by sqrt(d_head)",
    "Every head is a scaled dot-product attention of its own.",
)
NO_OUTPUT_PROJECTION = Mistake(
    "multihead_no_output_projection",
    "the concatenated heads were returned without the output projection W_O",
    "MultiHead(X) = Concat(head_1, ..., head_h) W_O: one more matrix product after the merge.",
)
MASK_NOT_APPLIED = Mistake(
    "multihead_mask_ignored",
    "the mask was ignored: every query attended to every key",
    "Give the (n, n) mask a head axis of size 1 so the same mask reaches every head, before the softmax.",
)


def split(X, n_heads, mode="right"):
    X = as_float(X)
    *batch, n, d_model = X.shape
    d_head = d_model // n_heads
    if mode == "plain":
        return X.reshape(*batch, n_heads, n, d_head)
    if mode == "strided":
        return np.swapaxes(np.swapaxes(X.reshape(*batch, n, d_head, n_heads), -1, -2), -3, -2)
    return np.swapaxes(X.reshape(*batch, n, n_heads, d_head), -3, -2)


def merge(X, mode="right"):
    X = as_float(X)
    *batch, n_heads, n, d_head = X.shape
    if mode == "plain":
        return X.reshape(*batch, n, n_heads * d_head)
    return np.swapaxes(X, -3, -2).reshape(*batch, n, n_heads * d_head)


def variant(X, W_Q, W_K, W_V, W_O, n_heads, mask=None, *, split_mode="right", merge_mode="right",
            scale="d_head", output_projection=True, use_mask=True):
    """(output, weights) of multi-head self-attention done with one deliberate mistake."""
    X = as_float(X)
    d_model = X.shape[-1]
    Q, K, V = (split(X @ as_float(W), n_heads, split_mode) for W in (W_Q, W_K, W_V))
    factor = {"d_head": 1 / math.sqrt(d_model // n_heads), "d_model": 1 / math.sqrt(d_model), "none": 1.0}[scale]
    with np.errstate(all="ignore"):
        scores = (Q @ np.swapaxes(K, -1, -2)) * factor
        if mask is not None and use_mask:
            scores = np.where(np.expand_dims(np.asarray(mask, dtype=bool), -3), scores, -np.inf)
        weights = stable(scores, -1)
        concat = merge(weights @ V, merge_mode)
    return (concat @ as_float(W_O) if output_projection else concat), weights


VARIANTS = (
    (SCALE_D_MODEL, {"scale": "d_model"}),
    (NO_SCALE, {"scale": "none"}),
    (SPLIT_NO_TRANSPOSE, {"split_mode": "plain"}),
    (SPLIT_STRIDED, {"split_mode": "strided"}),
    (MERGE_NO_TRANSPOSE, {"merge_mode": "plain"}),
    (NO_OUTPUT_PROJECTION, {"output_projection": False}),
    (MASK_NOT_APPLIED, {"use_mask": False}),
)


def candidates(X, W_Q, W_K, W_V, W_O, n_heads, mask=None, part: int = 0) -> list:
    """(Mistake, lazy output) pairs for part ``part`` (0 output, 1 weights) of ``multi_head_self_attention``."""
    return [(mistake, (lambda kw=kw: variant(X, W_Q, W_K, W_V, W_O, n_heads, mask, **kw)[part]))
            for mistake, kw in VARIANTS if mask is not None or mistake is not MASK_NOT_APPLIED]


def split_candidates(X, n_heads) -> list:
    return [(SPLIT_NO_TRANSPOSE, lambda: split(X, n_heads, "plain")), (SPLIT_STRIDED, lambda: split(X, n_heads, "strided"))]


def merge_candidates(X) -> list:
    return [(MERGE_NO_TRANSPOSE, lambda: merge(X, "plain"))]
