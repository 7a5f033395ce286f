"""Classic positional-encoding mistakes (002 "Positional Information": sinusoidal and RoPE)."""
from __future__ import annotations

import numpy as np

from ..compare import Mistake
from . import as_float

SIN_COS_SWAPPED = Mistake(
    "sinusoidal_sin_cos_swapped",
    "sin and cos are swapped: the even columns hold cos and the odd columns sin",
    "PE[p, 2i] uses sin and PE[p, 2i+1] uses cos; at position 0 the row is 0, 1, 0, 1, ...",
)
EXPONENT_I = Mistake(
    "sinusoidal_exponent_i",
    "the frequency exponent used the pair index i instead of the even column index 2i",
    "The angle is p / 10000**(2i/d_model): the exponent runs over 0, 2, 4, ... divided by d_model.",
)
HALVES = Mistake(
    "sinusoidal_halves",
    "sin filled the first half of the columns and cos the second half, instead of alternating",
    "The columns alternate: sin in every even column, cos in the odd column right after it.",
)
EXPONENT_SIGN = Mistake(
    "sinusoidal_exponent_sign",
    "the position was multiplied by 10000**(2i/d_model) instead of divided by it",
    "Higher column pairs turn more slowly: their wavelength grows with 2i.",
)
COLUMN_FREQUENCY = Mistake(
    "sinusoidal_column_frequency",
    "every column got its own frequency (exponent j/d_model for column j) instead of one per (sin, cos) pair",
    "A sin column and the cos column after it share the same angle.",
)
ROTATE_HALF = Mistake(
    "rope_rotate_half",
    "the first half of the features was rotated with the second half (GPT-NeoX style) instead of interleaved pairs",
    "This kit's RoPE pairs each even feature with the odd feature right after it: (x[2i], x[2i+1]).",
)
DIRECTION_FLIPPED = Mistake(
    "rope_direction_flipped",
    "each pair was rotated by -theta instead of +theta",
    "The rotation by theta maps (x0, x1) to (x0 cos - x1 sin, x0 sin + x1 cos).",
)
ROPE_EXPONENT_I = Mistake(
    "rope_exponent_i",
    "the rotation frequency used i instead of 2i in base**(-2i/d)",
    "Pair i (features 2i and 2i+1) turns by p * base**(-2i/d): the exponent uses the even feature index.",
)
POSITIONS_IGNORED = Mistake(
    "rope_positions_ignored",
    "the `positions` argument was ignored (rows were rotated as if at positions 0, 1, 2, ...)",
    "When positions are given, row r is at position positions[r], not r.",
)


def sinusoidal(seq_len, d_model, *, mode="right"):
    p = np.arange(seq_len, dtype=np.float64)[:, None]
    half = (d_model + 1) // 2
    pair = np.arange(half, dtype=np.float64)
    if mode == "exponent_i":
        angles = p / 10000.0 ** (pair / d_model)
    elif mode == "sign":
        angles = p * 10000.0 ** (2 * pair / d_model)
    else:
        angles = p / 10000.0 ** (2 * pair / d_model)
    out = np.empty((seq_len, d_model))
    if mode == "halves":
        out[:, :half] = np.sin(angles)
        out[:, half:] = np.cos(angles[:, : d_model - half])
    elif mode == "swapped":
        out[:, 0::2] = np.cos(angles)
        out[:, 1::2] = np.sin(angles[:, : d_model // 2])
    elif mode == "column":
        columns = p / 10000.0 ** (np.arange(d_model) / d_model)
        out[:, 0::2] = np.sin(columns[:, 0::2])
        out[:, 1::2] = np.cos(columns[:, 1::2])
    else:
        out[:, 0::2] = np.sin(angles)
        out[:, 1::2] = np.cos(angles[:, : d_model // 2])
    return out


def sinusoidal_candidates(seq_len, d_model) -> list:
    return [(mistake, (lambda m=mode: sinusoidal(seq_len, d_model, mode=m)))
            for mistake, mode in ((SIN_COS_SWAPPED, "swapped"), (EXPONENT_I, "exponent_i"), (HALVES, "halves"),
                                  (EXPONENT_SIGN, "sign"), (COLUMN_FREQUENCY, "column"))]


def rope(x, positions=None, base=10000.0, *, mode="right"):
    x = as_float(x)
    n, d = x.shape[-2], x.shape[-1]
    if d % 2:
        raise ValueError("odd d")
    if positions is None or mode == "ignore_positions":
        positions = np.arange(n)
    positions = np.asarray(positions, dtype=np.float64)
    pair = np.arange(d // 2, dtype=np.float64)
    exponent = pair / d if mode == "exponent_i" else 2 * pair / d
    theta = positions[:, None] * base ** (-exponent)[None, :]
    if mode == "flipped":
        theta = -theta
    cos, sin = np.cos(theta), np.sin(theta)
    out = np.empty(x.shape, dtype=np.float64)
    if mode == "half":
        a, b = x[..., : d // 2], x[..., d // 2:]
        out[..., : d // 2] = a * cos - b * sin
        out[..., d // 2:] = a * sin + b * cos
    else:
        a, b = x[..., 0::2], x[..., 1::2]
        out[..., 0::2] = a * cos - b * sin
        out[..., 1::2] = a * sin + b * cos
    return out


def rope_candidates(x, positions=None, base=10000.0) -> list:
    pairs = [(mistake, (lambda m=mode: rope(x, positions, base, mode=m)))
             for mistake, mode in ((ROTATE_HALF, "half"), (DIRECTION_FLIPPED, "flipped"), (ROPE_EXPONENT_I, "exponent_i"))]
    if positions is not None:
        pairs.append((POSITIONS_IGNORED, lambda: rope(x, positions, base, mode="ignore_positions")))
    return pairs
