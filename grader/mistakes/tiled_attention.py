"""Classic tiled (flash-style) attention mistakes (002 "Memory: The Quadratic Problem", Flash Attention)."""
from __future__ import annotations

import math

import numpy as np

from ..compare import Mistake
from . import as_float

NO_RESCALE = Mistake(
    "tiled_no_rescale",
    "the running sum and output were not rescaled when a new block raised the running max",
    "Earlier blocks were exponentiated against an older, smaller max. When the max grows, "
    "bring the old sum and old output to the new max with one factor, exp(old_max - new_max).",
)
NO_RESCALE_SUM = Mistake(
    "tiled_no_rescale_sum",
    "the running output was rescaled but the running sum was not, when the running max grew",
    "The sum and the output are both measured against the running max: both need the same correction factor.",
)
NO_RESCALE_OUTPUT = Mistake(
    "tiled_no_rescale_output",
    "the running sum was rescaled but the running output was not, when the running max grew",
    "The sum and the output are both measured against the running max: both need the same correction factor.",
)
BLOCK_MAX_NO_RESCALE = Mistake(
    "tiled_block_max_no_rescale",
    "each block was exponentiated against its own max and the blocks were added up without a common scale",
    "Sums of exp(s - m) are only comparable for the same m: keep one running max and rescale what came before.",
)
BLOCKS_NORMALISED_SEPARATELY = Mistake(
    "tiled_blocks_normalised_separately",
    "each block was normalised by its own sum and the blocks' outputs were added (or averaged)",
    "Divide once, at the end, by the total sum over every block (kept up to date as blocks arrive).",
)
NO_CAUSAL_MASK = Mistake(
    "tiled_no_causal_mask",
    "causal=True was ignored: queries attended to future keys",
    "With causal=True key j is allowed for query i only when j <= i; mask inside each block with the absolute positions.",
)
CAUSAL_BLOCK_INDEX = Mistake(
    "tiled_causal_block_index",
    "the causal mask compared positions inside the block instead of absolute key positions",
    "Key j of a block starting at `start` is key start + j of the sequence.",
)
STRICT_CAUSAL = Mistake(
    "tiled_strict_causal",
    "the causal mask excluded the diagonal: a query did not attend to its own key",
    "Query i may attend keys j <= i, itself included.",
)
NO_SCALE = Mistake(
    "tiled_no_scale",
    "the scores were not divided by sqrt(d_k)",
    "Tiled attention must equal ordinary scaled dot-product attention.",
)
FULL_MATRIX = Mistake(
    "tiled_full_matrix",
    "an (n_q, n_k) array was built somewhere (the scores, the weights or a mask)",
    "Only one block of keys may be in memory at a time: every per-query statistic is a vector of n_q numbers.",
)


def variant(Q, K, V, block_size=64, causal=False, *, mode="right"):
    """Tiled attention with one deliberate mistake (``mode``)."""
    Q, K, V = as_float(Q), as_float(K), as_float(V)
    n_q, d_k = Q.shape
    n_k = K.shape[0]
    scale = 1.0 if mode == "no_scale" else 1 / math.sqrt(d_k)
    m = np.full(n_q, -np.inf)
    s = np.zeros(n_q)
    o = np.zeros((n_q, V.shape[1]))
    rows = np.arange(n_q)[:, None]
    with np.errstate(all="ignore"):
        for start in range(0, n_k, block_size):
            stop = min(start + block_size, n_k)
            scores = (Q @ K[start:stop].T) * scale
            if causal and mode != "no_causal":
                keys = np.arange(stop - start)[None, :] if mode == "block_index" else np.arange(start, stop)[None, :]
                allowed = keys < rows if mode == "strict" else keys <= rows
                scores = np.where(allowed, scores, -np.inf)
            if mode == "separate":
                w = np.exp(scores - scores.max(axis=1, keepdims=True))
                w = np.nan_to_num(w)
                total = w.sum(axis=1, keepdims=True)
                o = o + np.divide(w, total, out=np.zeros_like(w), where=total > 0) @ V[start:stop]
                continue
            new_m = np.maximum(m, scores.max(axis=1))
            shift = np.where(np.isfinite(new_m), new_m, 0)
            if mode == "block_max":
                block = scores.max(axis=1)
                w = np.exp(scores - np.where(np.isfinite(block), block, 0)[:, None])
            else:
                w = np.exp(scores - shift[:, None])
            rescale = np.exp(m - shift)
            s = (s if mode in ("no_rescale", "no_rescale_sum", "block_max") else s * rescale) + w.sum(axis=1)
            o = (o if mode in ("no_rescale", "no_rescale_output", "block_max") else o * rescale[:, None]) + w @ V[start:stop]
            m = new_m
    if mode == "separate":
        return o
    return np.divide(o, s[:, None], out=np.zeros_like(o), where=s[:, None] > 0)


def candidates(Q, K, V, block_size=64, causal=False) -> list:
    modes = [(NO_RESCALE, "no_rescale"), (NO_RESCALE_SUM, "no_rescale_sum"), (NO_RESCALE_OUTPUT, "no_rescale_output"),
             (BLOCK_MAX_NO_RESCALE, "block_max"), (NO_SCALE, "no_scale")]
    if causal:
        modes = [(NO_CAUSAL_MASK, "no_causal"), (STRICT_CAUSAL, "strict"), (CAUSAL_BLOCK_INDEX, "block_index")] + modes
    pairs = [(mistake, (lambda m=mode: variant(Q, K, V, block_size, causal, mode=m))) for mistake, mode in modes]
    pairs.append((BLOCKS_NORMALISED_SEPARATELY, lambda: variant(Q, K, V, block_size, causal, mode="separate")))
    pairs.append((BLOCKS_NORMALISED_SEPARATELY,
                  lambda: variant(Q, K, V, block_size, causal, mode="separate") / math.ceil(K.shape[0] / block_size)))
    return pairs
