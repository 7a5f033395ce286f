"""Classic KV-cache mistakes (002 "Training vs Inference", KV Cache)."""
from __future__ import annotations

import math

import numpy as np

from ..compare import Mistake
from . import as_float
from .softmax import stable

ATTEND_BEFORE_APPEND = Mistake(
    "kv_cache_attend_before_append",
    "the new token attended before its own key and value were in the cache, so it missed itself",
    "A causal mask lets a token see itself. Put the new key and value into the cache first, then attend.",
)
NO_SCALE = Mistake(
    "kv_cache_no_scale",
    "the decode step's scores were not divided by sqrt(d_k)",
    "A decode step is ordinary scaled dot-product attention for one query.",
)
DIVIDE_BY_DK = Mistake(
    "kv_cache_divide_by_dk",
    "the decode step's scores were divided by d_k instead of sqrt(d_k)",
    "Scale exactly as in full attention: by the square root of the key dimension.",
)
ONLY_SELF = Mistake(
    "kv_cache_only_self",
    "each step attended only to the new token (its output is just its own value)",
    "The point of the cache is that the new query sees every cached key, oldest first, itself last.",
)
VALUES_AS_KEYS = Mistake(
    "kv_cache_keys_values_swapped",
    "keys and values were swapped in the cache",
    "Scores come from the query and the cached keys; the output is a weighted sum of the cached values.",
)


def decode_variant(X, W_Q, W_K, W_V, prefix: int = 0, *, mode="right"):
    """Stacked decode outputs for tokens ``prefix .. n-1`` when the first ``prefix`` are already cached."""
    X = as_float(X)
    Q, K, V = X @ as_float(W_Q), X @ as_float(W_K), X @ as_float(W_V)
    if mode == "swapped":
        K, V = V, K
    d_k = Q.shape[-1]
    factor = {"none": 1.0, "dk": 1 / d_k}.get(mode, 1 / math.sqrt(d_k))
    rows = []
    for t in range(prefix, X.shape[0]):
        stop = t if mode == "before" else t + 1
        start = t if mode == "self" else 0
        if stop <= start:
            return None  # undefined (an empty cache)
        keys, values = K[start:stop], V[start:stop]
        rows.append(stable((keys @ Q[t]) * factor) @ values)
    return np.stack(rows)


def candidates(X, W_Q, W_K, W_V, prefix: int = 0) -> list:
    return [(mistake, (lambda m=mode: decode_variant(X, W_Q, W_K, W_V, prefix, mode=m)))
            for mistake, mode in ((ATTEND_BEFORE_APPEND, "before"), (NO_SCALE, "none"), (DIVIDE_BY_DK, "dk"),
                                  (ONLY_SELF, "self"), (VALUES_AS_KEYS, "swapped"))]
