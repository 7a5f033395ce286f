"""Random whole GPT-2 models for the checks of ``gpt`` and ``sampling``, and how a call on one is restated.

Not checks themselves (no ``test_`` names here). The block parameters come from ``gpt2_params``; the
embeddings add a token table of scale 1 and a position table of scale 0.5, so that both matter.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..compare import CheckFailed, describe, expect_close
from .common import normal
from .gpt2_params import block_params, layer_norm_params


def model_params(rng: np.random.Generator, V: int, d: int, n_ctx: int, n_layer: int, d_ff: int | None = None,
                 dtype=np.float64) -> dict:
    """A whole model's tree: ``wte (V, d)``, ``wpe (n_ctx, d)``, ``n_layer`` blocks, ``ln_f``."""
    return {"wte": {"weight": normal(rng, (V, d), dtype)}, "wpe": {"weight": normal(rng, (n_ctx, d), dtype, 0.5)},
            "h": [block_params(rng, d, d_ff, dtype) for _ in range(n_layer)], "ln_f": layer_norm_params(rng, d, dtype)}


def model_text(params: dict) -> str:
    """``params of a 2-layer model (V=11, d=16, n_ctx=12)``, with the dtype when it is not float64."""
    V, d = params["wte"]["weight"].shape
    dtype = params["wte"]["weight"].dtype
    kind = "" if dtype == np.float64 else f" {dtype}"
    return f"params of a {len(params['h'])}-layer{kind} model (V={V}, d={d}, n_ctx={params['wpe']['weight'].shape[0]})"


def tokens_text(tokens: Any) -> str:
    """Short token sequences by value, longer ones by shape."""
    array = np.asarray(tokens)
    if array.size <= 8:
        return f"tokens={tokens!r}" if isinstance(tokens, list) else f"tokens={array.tolist()}"
    return f"tokens of shape {array.shape}"


def expect_loss(got: Any, expected: Any, *, call: str, rtol: float | None = None, atol: float | None = None):
    """A loss: a scalar (a Python float, a numpy scalar or a 0-d array) close to the reference's ``expected``
    (compared as a 0-d array, so that a wrong value can be diagnosed like any other result)."""
    scalar = isinstance(got, (float, int, np.floating, np.integer)) and not isinstance(got, (bool, np.bool_))
    if isinstance(got, np.ndarray) and got.shape != ():
        raise CheckFailed(f"{call} returned shape {got.shape}; expected a scalar loss (the mean over every position)",
                          got=got, expected=expected, origin=expected)
    if not (scalar or isinstance(got, np.ndarray)):
        raise CheckFailed(f"{call} returned {describe(got)}; expected a scalar loss (a float or a 0-d array)")
    return expect_close(np.asarray(got), np.asarray(expected), call=call, origin=expected, rtol=rtol, atol=atol)
