"""softmax_backward and attention_backward against central finite differences (float64, step 1e-6,
agreement 1e-6), and the reason for the 1/sqrt(d_k) scale: gradients through a saturated softmax."""
import copy
import math

import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention
from solutions.attention_backward import attention_backward, softmax_backward
from solutions.softmax import softmax
from tests.curriculum.test_solutions_dtypes import make_inputs

STEP, AGREEMENT = 1e-6, 1e-6


def numeric_gradient(loss, arrays, index):
    """Central differences of ``loss(*arrays)`` with respect to ``arrays[index]``, entry by entry."""
    point = [np.array(a, dtype=np.float64) for a in arrays]
    gradient = np.zeros_like(point[index])
    for entry in np.ndindex(gradient.shape):
        original = point[index][entry]
        point[index][entry] = original + STEP
        up = loss(*point)
        point[index][entry] = original - STEP
        down = loss(*point)
        point[index][entry] = original
        gradient[entry] = (up - down) / (2 * STEP)
    return gradient


def max_error(got, want):
    return float(np.max(np.abs(got - want)))


@pytest.mark.parametrize("shape, axis", [((5,), -1), ((3, 4), -1), ((3, 4), 0), ((2, 3, 4), 1)])
def test_softmax_backward_matches_finite_differences(shape, axis):
    rng = np.random.default_rng(len(shape) + axis)
    x, dy = rng.standard_normal(shape) * 2, rng.standard_normal(shape)
    got = softmax_backward(softmax(x, axis=axis), dy, axis=axis)
    want = numeric_gradient(lambda x: np.sum(dy * softmax(x, axis=axis)), [x], 0)
    assert got.shape == shape
    assert max_error(got, want) < AGREEMENT


def test_softmax_backward_is_not_just_y_times_dy():
    """The Jacobian of softmax is diag(y) - y y^T: the term -y_i sum_k dy_k y_k is what couples the entries."""
    y = softmax(np.array([0.0, 1.0, 2.0]))
    dy = np.ones(3)                                # a loss that is sum(y) = 1 whatever x is: zero gradient
    np.testing.assert_allclose(softmax_backward(y, dy), 0, atol=1e-16)
    assert np.abs(y * dy).max() > 0.5


def test_softmax_backward_dtypes_untouched_inputs_and_shape_error():
    rng = np.random.default_rng(1)
    y, dy = softmax(rng.standard_normal((3, 4))).astype(np.float32), rng.standard_normal((3, 4)).astype(np.float32)
    copies = y.copy(), dy.copy()
    assert softmax_backward(y, dy).dtype == np.float32
    np.testing.assert_array_equal(y, copies[0])
    np.testing.assert_array_equal(dy, copies[1])
    assert softmax_backward([[0.5, 0.5]], [[1, 2]]).dtype == np.float64
    with pytest.raises(ValueError, match="dy has shape"):
        softmax_backward(np.ones((2, 3)) / 3, np.ones((3, 2)))


def attention_loss(dO, mask):
    return lambda Q, K, V: float(np.sum(dO * scaled_dot_product_attention(Q, K, V, mask)[0]))


CASES = {
    "plain": ((4, 3), (5, 3), (5, 2), None),
    "batched": ((2, 3, 4), (2, 6, 4), (2, 6, 3), None),
    "causal": ((5, 4), (5, 4), (5, 3), "causal"),
    "random mask with fully masked rows": ((2, 4, 3), (2, 5, 3), (2, 5, 2), "random"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_attention_backward_matches_finite_differences(case):
    q, k, v, mask_kind = CASES[case]
    rng = np.random.default_rng(len(case))
    Q, K, V = rng.standard_normal(q), rng.standard_normal(k), rng.standard_normal(v)
    dO = rng.standard_normal((*q[:-1], v[-1]))
    mask = None
    if mask_kind == "causal":
        mask = np.tril(np.ones((q[-2], k[-2]), dtype=bool))
    elif mask_kind == "random":
        mask = rng.random((*q[:-1], k[-2])) < 0.5
        mask[0, 1] = False                                   # a query with no allowed key
        mask[1, 3] = False
    grads = attention_backward(Q, K, V, dO, mask)
    loss = attention_loss(dO, mask)
    errors = []
    for index, (name, grad, array) in enumerate(zip(("dQ", "dK", "dV"), grads, (Q, K, V))):
        assert grad.shape == array.shape and grad.dtype == np.float64, name
        errors.append(max_error(grad, numeric_gradient(loss, [Q, K, V], index)))
    print(f"{case}: max abs error dQ {errors[0]:.1e}, dK {errors[1]:.1e}, dV {errors[2]:.1e}")
    assert max(errors) < AGREEMENT
    if mask_kind == "random":
        np.testing.assert_array_equal(grads[0][0, 1], 0)   # a fully masked query gets no gradient
        np.testing.assert_array_equal(grads[0][1, 3], 0)


def test_masked_keys_receive_no_gradient():
    rng = np.random.default_rng(3)
    Q, K, V, dO = rng.standard_normal((4, 3)), rng.standard_normal((6, 3)), rng.standard_normal((6, 2)), \
        rng.standard_normal((4, 2))
    mask = np.ones((4, 6), dtype=bool)
    mask[:, 4:] = False                                     # keys 4 and 5 are padding for every query
    dQ, dK, dV = attention_backward(Q, K, V, dO, mask)
    np.testing.assert_array_equal(dK[4:], 0)
    np.testing.assert_array_equal(dV[4:], 0)
    trimmed = attention_backward(Q, K[:4], V[:4], dO)
    for got, want in zip((dQ, dK[:4], dV[:4]), trimmed):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kind, want", [("float32", np.float32), ("int", np.float64), ("list", np.float64)])
def test_attention_backward_dtypes_and_untouched_inputs(kind, want):
    args = make_inputs([(3, 4), (5, 4), (5, 2), (3, 2)], kind, seed=4)
    before = copy.deepcopy(args)
    for grad in attention_backward(*args):
        assert grad.dtype == want
    for old, new in zip(before, args):
        np.testing.assert_array_equal(np.asarray(new), np.asarray(old))
    with pytest.raises(ValueError, match="dO has shape"):
        attention_backward(*args[:3], np.zeros((3, 3)))


def score_gradient_norm(scale, d_k=512, n=16, seed=0):
    """(median over queries of the norm of dL/d(scores), median top weight) for unit-variance q, k of
    size d_k, with or without the 1/sqrt(d_k) scale. The median: a typical query, not the few whose
    two best keys happen to tie."""
    rng = np.random.default_rng(seed)
    Q, K = rng.standard_normal((n, d_k)), rng.standard_normal((n, d_k))
    dP = rng.standard_normal((n, n))                         # some upstream gradient of the weights
    scores = (Q @ K.T) * (1 / math.sqrt(d_k) if scale else 1.0)
    P = softmax(scores)
    return float(np.median(np.linalg.norm(softmax_backward(P, dP), axis=-1))), float(np.median(P.max(axis=-1)))


def test_scaling_keeps_gradients_from_vanishing_at_d_k_512():
    """Unscaled scores of 512-dimensional vectors have a spread near sqrt(512) ~ 23: the softmax
    saturates (the top weight is ~1) and the gradient that reaches the scores nearly vanishes."""
    scaled, scaled_top = score_gradient_norm(scale=True)
    unscaled, unscaled_top = score_gradient_norm(scale=False)
    print(f"d_k = 512: gradient norm of the scores {scaled:.3g} scaled, {unscaled:.3g} unscaled "
          f"(ratio {scaled / unscaled:.0f}); median top weight {scaled_top:.2f} vs {unscaled_top:.4f}")
    assert unscaled_top > 0.99 and scaled_top < 0.5
    assert scaled > 100 * unscaled
