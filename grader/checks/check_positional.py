"""Checks for exercise ``positional``: sinusoidal encodings and rotary embeddings."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_array, expect_close
from grader.mistakes.positional import MODIFIES_INPUT


def textbook_sinusoidal(seq_len, d_model):
    """The textbook sinusoidal_position_encoding, written with exp and log (even d_model only)."""
    position = np.arange(seq_len)[:, np.newaxis]
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    pe = np.zeros((seq_len, d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


@check(points=3, task=1)
def test_sinusoidal_matches_reference(impl, ref):
    """sinusoidal_encoding matches the reference (even and odd d_model, float64)"""
    for seq_len, d_model in ((10, 64), (7, 8), (5, 7), (1, 2), (3, 1)):
        expected = ref.positional.sinusoidal_encoding(seq_len, d_model)
        expect_close(impl.positional.sinusoidal_encoding(seq_len, d_model), expected,
                     call=f"sinusoidal_encoding({seq_len}, {d_model})")


@check(points=2, task=1)
def test_sinusoidal_matches_document_formula(impl, ref):
    """sinusoidal_encoding equals the formula PE[p, 2i] = sin(p / 10000**(2i/d)), PE[p, 2i+1] = cos(same angle)"""
    for seq_len, d_model in ((10, 64), (50, 16)):
        origin = ref.positional.sinusoidal_encoding(seq_len, d_model)
        expect_close(impl.positional.sinusoidal_encoding(seq_len, d_model), textbook_sinusoidal(seq_len, d_model),
                     call=f"sinusoidal_encoding({seq_len}, {d_model})", atol=1e-12, rtol=1e-9, origin=origin)


@check(points=1, task=1)
def test_sinusoidal_first_row(impl, ref):
    """position 0 encodes as 0, 1, 0, 1, ... (sin 0 and cos 0)"""
    origin = ref.positional.sinusoidal_encoding(1, 6)
    expect_close(impl.positional.sinusoidal_encoding(1, 6), np.array([[0.0, 1.0, 0.0, 1.0, 0.0, 1.0]]),
                 call="sinusoidal_encoding(1, 6)", origin=origin)


@check(points=3, task=2)
def test_rope_matches_reference(impl, ref, rng):
    """apply_rope matches the reference (batches, float32, integer input, given positions and base)"""
    cases = ((normal(rng, (6, 8)), None, None), (normal(rng, (2, 3, 5, 4), np.float32), None, None),
             (normal(rng, (4, 6)), np.array([3, 7, 0, 12]), 100.0), (np.arange(12).reshape(3, 4) - 5, None, None),
             (normal(rng, (2, 4, 2)), np.array([1, 2, 3, 50]), None))
    for x, positions, base in cases:
        args, kwargs, shown = (x,), {}, [arg("x", x)]
        if positions is not None:
            kwargs["positions"] = positions
            shown.append(f"positions={positions.tolist()}")
        if base is not None:
            kwargs["base"] = base
            shown.append(f"base={base}")
        expected = ref.positional.apply_rope(*args, **kwargs)
        expect_close(impl.positional.apply_rope(*args, **kwargs), expected, call=call_text("apply_rope", *shown))


@check(points=3, task=2)
def test_rope_relative_positions(impl, ref, rng):
    """RoPE keeps lengths, leaves position 0 unchanged, q.k depends only on the distance; positions > 0 turn"""
    q, k = normal(rng, (1, 8)), normal(rng, (1, 8))
    rotated, expected, calls = [], [], []
    for x, positions in ((q, np.array([0, 5, 12])), (k, np.array([0, 2, 9]))):
        rows = np.repeat(x, 3, axis=0)
        call = call_text("apply_rope", arg("x", rows), f"positions={positions.tolist()}")
        expected.append(ref.positional.apply_rope(rows, positions=positions))
        got = expect_array(impl.positional.apply_rope(rows, positions=positions), call=call, shape=(3, 8),
                           origin=expected[-1])
        expect_close(got[:1], x, call=call, what="row at position 0 (a rotation by 0 changes nothing)")
        norms = np.linalg.norm(np.asarray(got, dtype=np.float64), axis=-1)
        expect_close(norms, np.full(3, np.linalg.norm(x)), call=call, what="row lengths (a rotation keeps lengths)")
        rotated.append(got)
        calls.append(call)
    scores = np.asarray(rotated[0]) @ np.asarray(rotated[1]).T
    # (q at 5).(k at 2) and (q at 12).(k at 9) are both 3 apart; (q at 0).(k at 0) vs plain q.k: distance 0
    plain = (q @ k.T).item()
    if not np.isclose(scores[1, 1], scores[2, 2], rtol=1e-7, atol=1e-9) or not np.isclose(scores[0, 0], plain):
        raise CheckFailed(f"apply_rope: rotated q at position 5 . k at 2 gave {scores[1, 1]:.10g} but q at 12 . k "
                          f"at 9 gave {scores[2, 2]:.10g}; expected equal dot products (both 3 positions apart), "
                          f"and q.k = {plain:.10g} at positions 0, 0 (got {scores[0, 0]:.10g})")
    for got, wanted, call in zip(rotated, expected, calls):    # a rotation that does nothing keeps all of the above
        expect_close(got, wanted, call=call)


@check(points=1, task=2, rule="raises")
def test_rope_rejects_odd_dimension(impl, ref, rng):
    """apply_rope raises ValueError for an odd feature size d"""
    x = normal(rng, (3, 4))
    expect_close(impl.positional.apply_rope(x), ref.positional.apply_rope(x),
                 call=call_text("apply_rope", arg("x", x)))       # a valid call must work before errors score
    for shape in ((3, 5), (2, 4, 1)):
        x = np.ones(shape)
        expect_value_error(lambda x=x: impl.positional.apply_rope(x), call=call_text("apply_rope", arg("x", x)),
                           why=f"d={shape[-1]} is odd, features are rotated in pairs")


@check(points=1, task=2, rule="dtype")
def test_positional_dtypes(impl, ref, rng):
    """sinusoidal_encoding is float64; apply_rope keeps float32 and gives float64 for integers"""
    expect_dtypes(impl.positional.sinusoidal_encoding(4, 6), ref.positional.sinusoidal_encoding(4, 6),
                  call="sinusoidal_encoding(4, 6)")
    for x in (normal(rng, (2, 3, 4), np.float32), np.arange(12).reshape(3, 4) - 5):
        expected = ref.positional.apply_rope(x)
        expect_dtypes(impl.positional.apply_rope(x), expected, call=call_text("apply_rope", arg("x", x)))


@check(points=1, task=2, rule="untouched")
def test_apply_rope_leaves_inputs_untouched(impl, ref, rng):
    """apply_rope leaves the caller's x and positions as they were (it returns a rotated copy)"""
    for dtype in (np.float64, np.float32):
        x, positions = normal(rng, (2, 5, 6), dtype), np.arange(5) + 3
        expect_untouched(impl, "positional", "apply_rope", (x, positions), names=("x", "positions"),
                         expected=ref.positional.apply_rope(x, positions), mistake=MODIFIES_INPUT)
