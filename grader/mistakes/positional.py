"""Classic positional-encoding mistakes: sinusoidal tables and rotary embeddings (RoPE)."""
from __future__ import annotations

from .anchors import Edit
from .model import Alternatives, Mistake, modifies_input

SIN = "encoding[:, 0::2] = np.sin(angles)"
COS = "encoding[:, 1::2] = np.cos(angles[:, : d_model // 2])"
ANGLES = "angles = positions / 10000.0 ** (two_i / d_model)"
THETA = "theta = positions[:, None] * frequencies[None, :]"

SIN_COS_SWAPPED = Mistake(
    id="sinusoidal_sin_cos_swapped",
    functions=("sinusoidal_encoding",),
    looks_like="sin and cos are swapped: the even columns hold cos and the odd columns sin",
    hint="At position 0 every sin is 0 and every cos is 1: what should row 0 look like, column by column?",
    patch=(Edit("sinusoidal_encoding.encoding", SIN, "encoding[:, 0::2] = np.cos(angles)"),
           Edit("sinusoidal_encoding.encoding_cos", COS, "encoding[:, 1::2] = np.sin(angles[:, : d_model // 2])")),
)
HALVES = Mistake(
    id="sinusoidal_halves",
    functions=("sinusoidal_encoding",),
    looks_like="sin filled the first half of the columns and cos the second half, instead of alternating",
    hint="The columns come in (sin, cos) pairs that share one angle, side by side.",
    patch=(Edit("sinusoidal_encoding.encoding", SIN, "encoding[:, : angles.shape[1]] = np.sin(angles)"),
           Edit("sinusoidal_encoding.encoding_cos",
                COS, "encoding[:, angles.shape[1]:] = np.cos(angles[:, : d_model // 2])")),
)
EXPONENT_I = Mistake(
    id="sinusoidal_exponent_i",
    functions=("sinusoidal_encoding",),
    looks_like="the frequencies fall too slowly: the exponent used the pair index i instead of the column index 2i",
    hint="The exponent of 10000 runs over 0, 2, 4, ... divided by d_model, reaching almost 1 at the last pair.",
    patch=(Edit("sinusoidal_encoding.angles", ANGLES, "angles = positions / 10000.0 ** (two_i / 2 / d_model)"),),
)
EXPONENT_SIGN = Mistake(
    id="sinusoidal_exponent_sign",
    functions=("sinusoidal_encoding",),
    looks_like="the later columns turn faster instead of slower: the position was multiplied by "
               "10000**(2i/d_model), not divided",
    hint="Higher column pairs turn more slowly: their wavelength grows with 2i.",
    patch=(Edit("sinusoidal_encoding.angles", ANGLES, "angles = positions * 10000.0 ** (two_i / d_model)"),),
)
COLUMN_FREQUENCY = Mistake(
    id="sinusoidal_column_frequency",
    functions=("sinusoidal_encoding",),
    looks_like="the cos columns have frequencies of their own: every column got exponent j/d_model, not one per pair",
    hint="A sin column and the cos column after it share the same angle.",
    patch=(Edit("sinusoidal_encoding.encoding_cos",
                COS, "encoding[:, 1::2] = np.cos(positions / 10000.0 ** ((two_i[: d_model // 2] + 1) / d_model))"),),
)
ROTATE_HALF = Mistake(
    id="rope_rotate_half",
    functions=("apply_rope",),
    looks_like="the features were rotated in the 'rotate half' convention: feature i paired with feature "
               "i + d/2 instead of its neighbour",
    hint="This kit's RoPE rotates interleaved pairs: which feature is the partner of feature 2i?",
    patch=(Edit("apply_rope.x_even",
                "x_even, x_odd = x[..., 0::2], x[..., 1::2]", "x_even, x_odd = x[..., : d // 2], x[..., d // 2:]"),
           Edit("apply_rope.rotated",
                "rotated[..., 0::2] = x_even * cos - x_odd * sin",
                "rotated[..., : d // 2] = x_even * cos - x_odd * sin"),
           Edit("apply_rope.odd",
                "rotated[..., 1::2] = x_even * sin + x_odd * cos",
                "rotated[..., d // 2:] = x_even * sin + x_odd * cos")),
)
DIRECTION_FLIPPED = Mistake(
    id="rope_direction_flipped",
    functions=("apply_rope",),
    looks_like="each pair was rotated by -theta instead of +theta",
    hint="A rotation by a positive angle turns (1, 0) towards (0, 1): check the signs of the two sin terms.",
    patch=(Edit("apply_rope.theta", THETA, "theta = -positions[:, None] * frequencies[None, :]"),),
)
ROPE_EXPONENT_I = Mistake(
    id="rope_exponent_i",
    functions=("apply_rope",),
    looks_like="the rotation frequencies fall too slowly: the exponent used the pair index i instead of 2i",
    hint="Pair i holds features 2i and 2i+1; the exponent of the base counts features, not pairs.",
    patch=(Edit("apply_rope.frequencies", "frequencies = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)",
            "frequencies = base ** (-np.arange(0, d // 2, dtype=np.float64) / d)"),),
)
POSITIONS_IGNORED = Mistake(
    id="rope_positions_ignored",
    functions=("apply_rope",),
    looks_like="the rows were rotated as if at positions 0, 1, 2, ...: the `positions` argument had no effect",
    hint="When positions are given, row r sits at position positions[r], not r.",
    patch=(Edit("apply_rope.if_positions",
                "if positions is None:\n        positions = np.arange(n)", "positions = np.arange(n)"),),
    raises=(("TypeError", r"unexpected keyword argument 'positions'",
             "apply_rope does not accept a `positions` argument, so rows cannot sit at the positions given"),),
)
TWO_I = "two_i = np.arange(0, d_model, 2, dtype=np.float64)"
EXPONENT_4I = Mistake(
    id="sinusoidal_exponent_4i",
    functions=("sinusoidal_encoding",),
    looks_like="the frequencies fall too fast: the exponent was 4i/d_model, the even column index doubled once more",
    hint="Is your i the pair number or the column number? The exponent uses the even column number over d_model.",
    patch=(Edit("sinusoidal_encoding.two_i", TWO_I, "two_i = 2 * np.arange(0, d_model, 2, dtype=np.float64)"),),
)
POWER_OF_RATIO = Mistake(
    id="sinusoidal_power_of_ratio",
    functions=("sinusoidal_encoding",),
    looks_like="the angle was (p/10000)**(2i/d_model): the position was raised to the power together with 10000",
    hint="Which part of the formula is raised to the power: the position, or only 10000?",
    patch=(Edit("sinusoidal_encoding.angles", ANGLES, "angles = (positions / 10000.0) ** (two_i / d_model)"),),
)
ROW0_ZERO = Mistake(
    id="sinusoidal_row0_zero",
    functions=("sinusoidal_encoding",),
    looks_like="position 0 was left as a row of zeros, where sin(0), cos(0), sin(0), ... gives 0, 1, 0, 1",
    hint="At position 0 every angle is 0. What are sin(0) and cos(0)?",
    patch=(Edit("sinusoidal_encoding.return",
                "    return encoding\n", "    encoding[0] = 0.0\n    return encoding\n"),),
)
ODD_LAST_COLUMN_ZERO = Mistake(
    id="sinusoidal_odd_last_column_zero",
    functions=("sinusoidal_encoding",),
    looks_like="with an odd d_model the last column (a sin column) was left at zero",
    hint="With an odd d_model the last column has no cos partner, but it is still a sin column.",
    patch=(Edit("sinusoidal_encoding.return",
                "    return encoding\n", "    if d_model % 2:\n        encoding[:, -1] = 0.0\n    return encoding\n"),),
)
FLOAT32_TABLES = Mistake(
    id="rope_float32_tables",
    functions=("apply_rope",),
    looks_like="the cos/sin tables were computed in float32, so float64 inputs were rotated with float32 angles",
    hint="The angle p * base**(-2i/d) grows with p; how many digits of it survive in float32?",
    patch=(Edit("apply_rope.cos", "cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)",
            "theta = theta.astype(np.float32)\n    cos, sin = np.cos(theta), np.sin(theta)"),),
)
MODIFIES_INPUT = modifies_input(
    "positional", ("apply_rope",), "x",
    "apply_rope.return", "    return rotated")


# the reference's lines that take RoPE's pairs (2i, 2i+1) and write them back rotated
ROPE_GATHER = "x_even, x_odd = x[..., 0::2], x[..., 1::2]"
ROPE_WRITE = ("rotated = np.empty_like(x)\n    rotated[..., 0::2] = x_even * cos - x_odd * sin\n"
              "    rotated[..., 1::2] = x_even * sin + x_odd * cos")
TWICE = "np.concatenate([{0}, {0}], axis=-1)"
REPEATED = "np.repeat({0}, 2, axis=-1)"
ALTERNATIVES = Alternatives("the pairing of features in RoPE (interleaved pairs 2i, 2i+1)", (
    ("gather_interleaved_write_halves", (Edit("apply_rope.rotated_empty_like", ROPE_WRITE, (
        "rotated = np.empty_like(x)\n    rotated[..., : d // 2] = x_even * cos - x_odd * sin\n"
        "    rotated[..., d // 2:] = x_even * sin + x_odd * cos")),),
     "two RoPE conventions were mixed: the pairs were taken interleaved (2i, 2i+1) but written back as two halves"),
    ("gather_halves_write_interleaved", (Edit("apply_rope.x_even",
                                              ROPE_GATHER, "x_even, x_odd = x[..., : d // 2], x[..., d // 2:]"),),
     "two RoPE conventions were mixed: the pairs were taken as two halves (i, i + d/2) but written back "
     "interleaved"),
    ("interleaved_with_rotate_half", (Edit("apply_rope.rotated_empty_like", ROPE_WRITE, (
        f"rotated = x * {TWICE.format('cos')} + np.concatenate([-x_odd, x_even], axis=-1) * "
        f"{TWICE.format('sin')}")),),
     "two RoPE conventions were mixed: the pairs were taken interleaved but rotated with 'rotate half' "
     "(concatenated halves, each angle's table written twice one after the other)"),
    ("halves_with_repeated_table", (Edit("apply_rope.rotated_empty_like", ROPE_WRITE, (
        f"rotated = x * {REPEATED.format('cos')} + np.concatenate([-x[..., d // 2:], x[..., : d // 2]], "
        f"axis=-1) * {REPEATED.format('sin')}")),),
     "two RoPE conventions were mixed: 'rotate half' (feature i with i + d/2) with an angle table whose "
     "entries are repeated side by side (the interleaved layout)"),
))
