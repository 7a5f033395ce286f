"""Fuzzing the checks' comparison helpers (grader/compare.py, grader/checks/common.py).

Whatever a student's code returns (any shape, any dtype: ints, bools, float16, complex, object,
strings, datetimes; NaN, inf; or no array at all), a comparison either passes or raises
:class:`CheckFailed` with a message restating the call; never another exception, never a pass for a
wrong shape or for values that are not close, and it never modifies what it was given.
"""
from __future__ import annotations

import copy

import numpy as np
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from grader.checks.common import expect_mask
from grader.compare import (
    CheckFailed,
    arg,
    describe,
    expect_array,
    expect_close,
    expect_tuple,
    first_difference,
    matches,
    resembles,
    show_scalar,
    tolerance_for,
)
from tests.robustness.robustkit import fuzz

CALL = "f(x of shape (2, 3))"
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
expected_dtypes = st.sampled_from([np.float64, np.float32, np.float16, np.int64, np.bool_])
any_dtypes = (hnp.floating_dtypes() | hnp.integer_dtypes() | hnp.unsigned_integer_dtypes() | hnp.boolean_dtypes()
              | hnp.complex_number_dtypes() | hnp.datetime64_dtypes() | hnp.timedelta64_dtypes()
              | st.just(np.dtype(object)) | hnp.unicode_string_dtypes(max_len=3) | hnp.byte_string_dtypes(max_len=3))


def arrays(dtype, shape):
    elements = None
    if np.dtype(dtype).kind == "f":
        elements = st.floats(allow_nan=True, allow_infinity=True, width=np.dtype(dtype).itemsize * 8)
    elif np.dtype(dtype).kind == "O":
        elements = st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=3),
                             st.lists(st.integers(), max_size=2))
    return hnp.arrays(dtype, shape, elements=elements)


@st.composite
def cases(draw):
    """(got, expected): the expected value of a check, and something a student might return for it."""
    expected = draw(shapes.flatmap(lambda shape: expected_dtypes.flatmap(lambda dtype: arrays(dtype, shape))))
    how = draw(st.sampled_from(["same", "nudged", "cast", "reshaped", "random", "not_an_array", "transposed",
                                "scaled"]))
    event(how)
    with np.errstate(all="ignore"):  # casting NaN to int, overflowing a float16: the point, not a warning
        return _student_value(draw, how, expected), expected


def _student_value(draw, how, expected):
    if how == "same":
        got = expected.copy()
    elif how == "nudged":
        got = expected.astype(np.float64) + draw(arrays(np.float64, expected.shape))
    elif how == "cast":
        got = expected.astype(draw(any_dtypes))
    elif how == "reshaped":
        got = draw(arrays(expected.dtype, draw(shapes)))
    elif how == "transposed":
        got = expected.T.copy() if expected.ndim else expected[None]
    elif how == "scaled":
        got = (expected.astype(np.float64) * draw(st.sampled_from([0.5, 2.0, -1.0, 1 + 1e-12, 1e300, 0.0])))
    elif how == "random":
        got = draw(shapes.flatmap(lambda shape: any_dtypes.flatmap(lambda dtype: arrays(dtype, shape))))
    else:
        got = draw(st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=5), st.booleans(),
                             st.lists(st.floats(), max_size=3), st.tuples(st.integers()),
                             st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
                             st.builds(np.float64, st.floats()), st.builds(np.int8, st.integers(-128, 127))))
    return got


def frozen(value):
    """A copy to check that nothing was modified in place."""
    return copy.deepcopy(value)


def same(a, b) -> bool:
    """``a`` unchanged from its copy ``b`` (arrays bit for bit; NaN equals NaN)."""
    if isinstance(a, np.ndarray):
        if not (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape):
            return False
        if a.dtype != object:
            return a.tobytes() == b.tobytes()
        return all(x is y or x == y or (x != x and y != y) for x, y in zip(a.flat, b.flat))
    return type(a) is type(b) and (a == b or a != a)


def close(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> bool:
    """numpy's own closeness (computed in the arrays' common dtype, as the helpers do)."""
    with np.errstate(all="ignore"):
        return bool(np.all(np.isclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)))


@fuzz()
@given(cases(), st.sampled_from(["same", None, np.float64, np.float32]))
def test_expect_close_passes_or_fails_cleanly(case, dtype):
    got, expected = case
    before = frozen(got), frozen(expected)
    try:
        returned = expect_close(got, expected, call=CALL, dtype=dtype)
    except CheckFailed as failure:
        assert failure.message.startswith(CALL) and failure.diagnosis is None
        event("failed")
    else:
        event("passed")
        rtol, atol = tolerance_for(expected.dtype)
        assert returned is got and isinstance(got, np.ndarray)
        assert got.shape == expected.shape, "a wrong shape passed"
        assert got.dtype.kind in "fiub", f"dtype {got.dtype} passed"
        assert close(got, expected, rtol, atol), "values that are not close passed"
        if dtype is not None:
            assert got.dtype == np.dtype(expected.dtype if dtype == "same" else dtype), "a wrong dtype passed"
    assert same(got, before[0]) and same(expected, before[1]), "an input was modified"


@fuzz()
@given(cases(), st.lists(st.sampled_from(["right", "wrong_shape", "none", "list", "nan", "text"]), max_size=4))
def test_recognising_a_mistake_never_breaks(case, kinds):
    """A mistake's output may be junk (wrong shape, None, a list, NaN, text): recognising it never raises."""
    got, expected = case
    outputs = {"right": got, "wrong_shape": np.zeros((7, 7)), "none": None, "list": [1, 2, 3],
               "nan": np.full(np.shape(expected), np.nan), "text": np.array(["a"])}
    for kind in kinds:
        assert resembles(got, outputs[kind]) in (True, False)


@fuzz()
@given(cases())
def test_mask_comparison(case):
    got, expected = case
    expected = expected.astype(bool)
    try:
        expect_mask(got, expected, call=CALL)
    except CheckFailed as failure:
        assert failure.message.startswith(CALL)
    else:  # accepted: the same entries (its dtype, bool, is scored by the exercise's dtype check)
        assert isinstance(got, np.ndarray) and got.shape == expected.shape
        assert np.array_equal(np.asarray(got, dtype=bool), expected) and np.array_equal(got, expected)


@fuzz()
@given(cases(), st.sampled_from([None, (2, 3), ()]), st.sampled_from([None, np.float64, np.bool_]))
def test_expect_array(case, shape, dtype):
    got, _ = case
    try:
        expect_array(got, call=CALL, shape=shape, dtype=dtype)
    except CheckFailed as failure:
        assert failure.message.startswith(CALL)
    else:
        assert isinstance(got, np.ndarray)
        assert shape is None or got.shape == shape
        assert dtype is None or got.dtype == np.dtype(dtype)


@fuzz()
@given(cases(), st.integers(0, 4))
def test_expect_tuple(case, count):
    got, _ = case
    names = tuple(f"part{i}" for i in range(count))
    for value in (got, (got,) * count, [got] * count):
        try:
            parts = expect_tuple(value, call=CALL, names=names)
        except CheckFailed as failure:
            assert failure.message.startswith(CALL)
        else:
            assert isinstance(parts, tuple) and len(parts) == count


@fuzz()
@given(shapes.flatmap(lambda shape: st.tuples(*[any_dtypes.flatmap(lambda dtype: arrays(dtype, shape))] * 2)))
def test_messages_for_any_two_arrays(pair):
    """describe / arg / show_scalar / first_difference: plain one-line text for any values."""
    got, expected = pair
    for value in (got, expected, None, [1], (2,), "text", 3.5):
        for text in (describe(value), arg("x", value)):
            assert isinstance(text, str) and text and "\n" not in text
    for value in (*got.flat[:3], *expected.flat[:3], got[()] if got.ndim == 0 else None, True, 3, "x" * 99):
        text = show_scalar(value)  # one entry of an array
        assert isinstance(text, str) and text and "\n" not in text
    if got.dtype.kind in "fiub" and expected.dtype.kind in "fiub":
        rtol, atol = tolerance_for(expected.dtype)
        if not close(got, expected, rtol, atol):
            text = first_difference(got, expected, rtol, atol)
            assert "entries differ" in text and "\n" not in text


SPECIAL = st.sampled_from([0.0, -0.0, 1.0, 1e-9, 1e300, np.inf, -np.inf, np.nan])
float_pairs = st.tuples(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
                        st.sampled_from([np.float64, np.float32, np.float16]),
                        st.sampled_from([np.float64, np.float32, np.int64, np.bool_])).flatmap(
    lambda spec: st.tuples(*(hnp.arrays(dtype, spec[0], elements=st.floats(width=16) | SPECIAL if dtype != np.bool_
                                        else st.booleans()) if dtype in (np.float64, np.float32, np.float16, np.bool_)
                             else hnp.arrays(dtype, spec[0]) for dtype in spec[1:])))


@fuzz()
@given(float_pairs, st.sampled_from([(1e-7, 1e-9), (1e-4, 1e-5), (0.0, 0.0), (1e-3, 0.0)]), st.booleans())
def test_matches_is_isclose_with_equal_nan(pair, tolerance, nudge):
    """The fast path of ``matches`` decides exactly as ``np.isclose(..., equal_nan=True)`` everywhere would."""
    got, candidate = pair
    if nudge:  # near the candidate instead: the values where the tolerance decides
        with np.errstate(all="ignore"):
            near = np.asarray(candidate, dtype=got.dtype) * got.dtype.type(1 + 2e-7) + got.dtype.type(1e-9)
            got = near.astype(got.dtype)
    rtol, atol = tolerance
    with np.errstate(all="ignore"):
        want = bool(np.all(np.isclose(got, candidate, rtol=rtol, atol=atol, equal_nan=True)))
    assert matches(got, candidate, rtol, atol) is want


def test_an_infinite_difference_is_reported_as_inf():
    """Found by the fuzzer: got 1 where inf was expected reported 'max abs error nan'."""
    text = first_difference(np.array([1.0]), np.array([np.inf]), 1e-7, 1e-9)
    assert "max abs error inf" in text
    text = first_difference(np.array([np.nan, 1.0]), np.array([0.0, 1.0]), 1e-7, 1e-9)
    assert "max abs error nan" in text  # NaN against a number: no distance to report
