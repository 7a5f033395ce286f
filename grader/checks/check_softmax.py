"""Checks for exercise ``softmax``: a numerically stable softmax."""
import numpy as np

from grader import document_values as doc
from grader.checks.common import DTYPES, expect_dtypes, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_close
from grader.mistakes.softmax import MODIFIES_INPUT

SHAPES_AND_AXES = (((6,), -1), ((3, 5), -1), ((4, 4), -1), ((3, 5), 0), ((2, 3, 4), 1), ((2, 3, 4), -1), ((2, 3, 4), 0))


@check(points=3, task=1)
def test_softmax_matches_reference(impl, ref, rng):
    """softmax matches the reference on random inputs (several shapes and axes, float64 and float32)"""
    for shape, axis in SHAPES_AND_AXES:
        for dtype in DTYPES:
            x = normal(rng, shape, dtype, scale=3.0)
            expected = ref.softmax.softmax(x, axis=axis)
            call = call_text("softmax", arg("x", x), f"axis={axis}")
            got = impl.softmax.softmax(x, axis=axis)
            expect_close(got, expected, call=call)
    for x in (normal(rng, (3, 4)), np.array([[1, 2, 3], [0, 0, 0]]), [1.0, 2.0, 3.0], [[0, 1], [2, 5]]):
        expected = ref.softmax.softmax(x)
        expect_close(impl.softmax.softmax(x), expected, call=call_text("softmax", arg("x", x)))


@check(points=1, task=1, rule="dtype")
def test_softmax_dtypes(impl, ref, rng):
    """softmax keeps float32 float32 and returns float64 for integers or a Python list"""
    for x, axis in ((normal(rng, (3, 4), np.float32), -1), (normal(rng, (2, 3), np.float32), 0),
                    (np.array([[1, 2, 3], [0, 0, 0]]), -1), ([1.0, 2.0, 3.0], -1), ([[0, 1], [2, 5]], 0)):
        expected = ref.softmax.softmax(x, axis=axis)
        call = call_text("softmax", arg("x", x), f"axis={axis}")
        expect_dtypes(impl.softmax.softmax(x, axis=axis), expected, call=call)


@check(points=2, task=1)
def test_softmax_document_weights(impl, ref):
    """softmax reproduces the attention weights of the worked "India is great" example"""
    printed = doc.india_expected()
    scaled = printed["raw_scores"].value / np.sqrt(4)
    # the printed raw scores are rounded to 8 decimals: allow that on top of the printed weights' rounding
    expected = printed["weights"]
    for axis in (1, -1):
        call = call_text("softmax", arg("scores / sqrt(4)", scaled), f"axis={axis}")
        origin = ref.softmax.softmax(scaled, axis=axis)
        expect_close(impl.softmax.softmax(scaled, axis=axis), expected.value, call=call,
                     atol=expected.atol + 1e-8, rtol=0, origin=origin)


@check(points=2, task=1)
def test_softmax_huge_inputs(impl, ref):
    """softmax stays finite for huge scores such as [1000, 1001] (no overflow in exp)"""
    cases = (
        np.array([1000.0, 1001.0]),
        np.array([[1000.0, 1001.0, 999.0], [-1000.0, -999.0, -1001.0]]),
        np.array([[5e4, 5e4 + 2.0], [0.5, 0.0]]),
        np.array([100.0, 101.0, 90.0], dtype=np.float32),  # exp(101) overflows float32
    )
    for x in cases:
        expected = ref.softmax.softmax(x)
        call = call_text("softmax", arg("x", x)) + (f" with x = {x.tolist()}" if x.size <= 6 else "")
        expect_close(impl.softmax.softmax(x), expected, call=call)
    x = np.array([[1000.0, -50.0], [1001.0, 50.0]])
    expected = ref.softmax.softmax(x, axis=0)
    expect_close(impl.softmax.softmax(x, axis=0), expected,
                 call=call_text("softmax", arg("x", x), "axis=0") + f" with x = {x.tolist()}")


@check(points=2, task=1)
def test_softmax_minus_infinity(impl, ref):
    """-inf scores get weight 0, and a slice that is entirely -inf gives zeros, not NaN"""
    inf = np.inf
    cases = (
        (np.array([0.0, -inf, 1.0]), -1),
        (np.array([[-inf, -inf, -inf], [1.0, 2.0, -inf]]), -1),
        (np.array([[-inf, 2.0], [-inf, -inf]]), 0),
        (np.array([[-inf, -inf], [0.5, -inf]], dtype=np.float32), -1),
    )
    for x, axis in cases:
        expected = ref.softmax.softmax(x, axis=axis)
        call = call_text("softmax", arg("x", x), f"axis={axis}") + f" with x = {x.tolist()}"
        expect_close(impl.softmax.softmax(x, axis=axis), expected, call=call)


@check(points=1, task=1, rule="untouched")
def test_softmax_leaves_input_untouched(impl, ref, rng):
    """softmax leaves the caller's array as it was (the result is a new array)"""
    for shape, axis, dtype in (((3, 5), -1, np.float64), ((2, 3, 4), 0, np.float32)):
        x = normal(rng, shape, dtype, scale=3.0)
        expect_untouched(impl, "softmax", "softmax", (x,), {"axis": axis}, names=("x",),
                         expected=ref.softmax.softmax(x, axis=axis), mistake=MODIFIES_INPUT)
