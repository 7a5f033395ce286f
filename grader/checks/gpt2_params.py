"""Random GPT-2 parameter trees for the checks, in the kit's layout (HF's names, Conv1D weights (in, out)).

Seeded by the check's ``rng``; scales keep LayerNorm gains near 1 and attention scores of order 1, so that
every head's weights are far from uniform and far from one-hot. Not checks themselves (no ``test_`` names).
"""
from __future__ import annotations

import numpy as np

from .common import normal


def linear_params(rng: np.random.Generator, d_in: int, d_out: int, dtype=np.float64, bias: float = 0.1) -> dict:
    """``{"weight": (d_in, d_out), "bias": (d_out,)}``, weights of scale 1/sqrt(d_in)."""
    return {"weight": normal(rng, (d_in, d_out), dtype, d_in ** -0.5), "bias": normal(rng, (d_out,), dtype, bias)}


def layer_norm_params(rng: np.random.Generator, d: int, dtype=np.float64) -> dict:
    """``{"weight": (d,), "bias": (d,)}``: gains near 1, small shifts."""
    return {"weight": (1.0 + normal(rng, (d,), np.float64, 0.2)).astype(dtype), "bias": normal(rng, (d,), dtype, 0.1)}


def mlp_params(rng: np.random.Generator, d: int, d_ff: int, dtype=np.float64) -> dict:
    return {"c_fc": linear_params(rng, d, d_ff, dtype), "c_proj": linear_params(rng, d_ff, d, dtype)}


def attn_params(rng: np.random.Generator, d: int, dtype=np.float64) -> dict:
    """A block's ``"attn"``: c_attn (d, 3d) of scale 2/sqrt(d) (scores of order 1 after LayerNorm), c_proj (d, d)."""
    c_attn = linear_params(rng, d, 3 * d, dtype)
    c_attn["weight"] = (c_attn["weight"] * 2.0).astype(dtype)
    return {"c_attn": c_attn, "c_proj": linear_params(rng, d, d, dtype)}


def block_params(rng: np.random.Generator, d: int, d_ff: int | None = None, dtype=np.float64) -> dict:
    """One entry of ``params["h"]``: ln_1, attn, ln_2, mlp (d_ff = 4d unless given)."""
    return {"ln_1": layer_norm_params(rng, d, dtype), "attn": attn_params(rng, d, dtype),
            "ln_2": layer_norm_params(rng, d, dtype), "mlp": mlp_params(rng, d, d_ff or 4 * d, dtype)}
