"""Properties of solutions.softmax.softmax (002 "In Code" and its pitfalls; 000's unstable version)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from solutions.softmax import softmax

FAST = settings(max_examples=40, deadline=None, database=None, derandomize=True)

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=64)
score_arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5), elements=finite)


def reference(x, axis):
    """exp(x - max) / sum, written out with no shortcuts (for finite x)."""
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


@FAST
@given(x=score_arrays, data=st.data())
def test_sums_to_one_along_any_axis(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    y = softmax(x, axis=axis)
    assert y.shape == x.shape and y.dtype == np.float64
    assert np.all(y >= 0) and np.all(y <= 1)
    np.testing.assert_allclose(y.sum(axis=axis), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(y, reference(x, axis), rtol=1e-12, atol=1e-300)


@FAST
@given(x=score_arrays, shift=st.floats(-1e4, 1e4, allow_nan=False))
def test_invariant_to_adding_a_constant(x, shift):
    np.testing.assert_allclose(softmax(x + shift), softmax(x), rtol=1e-9, atol=1e-12)


def test_default_axis_is_the_last():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(softmax(x), softmax(x, axis=-1))
    np.testing.assert_allclose(softmax(x).sum(axis=1), 1.0, rtol=0, atol=1e-15)
    assert not np.allclose(softmax(x).sum(axis=0), 1.0)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), 1.0, rtol=0, atol=1e-15)


def test_known_values():
    np.testing.assert_allclose(softmax([0.0, 0.0]), [0.5, 0.5], rtol=0, atol=1e-16)
    e = np.e
    np.testing.assert_allclose(softmax([0.0, 1.0]), [1 / (1 + e), e / (1 + e)], rtol=1e-15)
    np.testing.assert_allclose(softmax([1.0, 2.0, 3.0]), np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum(), rtol=1e-15)


def test_huge_inputs_do_not_overflow():
    with np.errstate(all="raise"):
        y = softmax(np.array([1000.0, 1001.0]))
    np.testing.assert_allclose(y, [1 / (1 + np.e), np.e / (1 + np.e)], rtol=1e-14)
    np.testing.assert_allclose(y.round(4), [0.2689, 0.7311])
    np.testing.assert_allclose(softmax(np.array([-1000.0, -1001.0])), y[::-1], rtol=1e-14)
    y = softmax(np.array([[1e308, 1e308], [-1e308, 0.0]]))
    np.testing.assert_allclose(y, [[0.5, 0.5], [0.0, 1.0]])


def test_minus_inf_gets_weight_zero():
    y = softmax(np.array([[0.0, -np.inf, 0.0], [-np.inf, 1.0, -np.inf]]))
    np.testing.assert_array_equal(y, [[0.5, 0.0, 0.5], [0.0, 1.0, 0.0]])


def test_all_minus_inf_slice_gives_zeros_not_nan():
    x = np.array([[-np.inf, -np.inf, -np.inf], [0.0, 1.0, 2.0]])
    with np.errstate(invalid="raise", divide="raise"):
        y = softmax(x)
    assert not np.any(np.isnan(y))
    np.testing.assert_array_equal(y[0], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(y[1].sum(), 1.0, rtol=0, atol=1e-15)
    # along axis 0: column 0 has one finite entry, the full -inf row never becomes NaN
    y0 = softmax(np.full((2, 3), -np.inf), axis=0)
    np.testing.assert_array_equal(y0, np.zeros((2, 3)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_never_modifies_input(dtype):
    x = np.array([[3.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf]], dtype=dtype)
    before = x.copy()
    y = softmax(x)
    np.testing.assert_array_equal(x, before)
    assert not np.shares_memory(x, y)
    y[...] = 7
    np.testing.assert_array_equal(x, before)


def test_read_only_input_works():
    x = np.array([1.0, 2.0])
    x.flags.writeable = False
    np.testing.assert_allclose(softmax(x).sum(), 1.0)
