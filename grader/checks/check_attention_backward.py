"""Checks for exercise ``attention_backward``: the gradients of the softmax and of scaled dot-product
attention, against the reference and against central finite differences."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_close, expect_parts
from grader.mistakes.attention_backward import MODIFIES_INPUT

STEP, AGREEMENT = 1e-6, 1e-6      # central differences in float64: exact to about 1e-9 at this step
GRADIENTS = ("dQ", "dK", "dV")
INTEGER_ARGS = (np.array([[1, 0], [0, 1], [1, 1]]), np.array([[1, 2], [0, 1]]), np.array([[3, 1, 0], [0, 2, 1]]),
                np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1]]))


def backward_call(Q, K, V, dO, mask=None):
    return call_text("attention_backward", arg("Q", Q), arg("K", K), arg("V", V), arg("dO", dO),
                     *(() if mask is None else (arg("mask", mask),)))


def expect_gradients(got, expected, *, call, atol=None, rtol=None, origin=None):
    """(dQ, dK, dV), compared in that order."""
    return expect_parts(got, expected, call=call, names=GRADIENTS, atol=atol, rtol=rtol, origin=origin)


def check_backward(impl, ref, Q, K, V, dO, mask=None):
    args = (Q, K, V, dO) + (() if mask is None else (mask,))
    expected = ref.attention_backward.attention_backward(*args)   # first: an exception of the student's is
    return expect_gradients(impl.attention_backward.attention_backward(*args),  # diagnosed on this call
                            expected, call=backward_call(Q, K, V, dO, mask))


def central_differences(loss, arrays, index):
    """d loss / d arrays[index], one entry at a time: (loss(x + h) - loss(x - h)) / 2h."""
    point = [np.array(a, dtype=np.float64) for a in arrays]
    gradient = np.zeros_like(point[index])
    for entry in np.ndindex(gradient.shape):
        original = point[index][entry]
        values = []
        for shifted in (original + STEP, original - STEP):
            point[index][entry] = shifted
            values.append(loss(*point))
        point[index][entry] = original
        gradient[entry] = (values[0] - values[1]) / (2 * STEP)
    return gradient


@check(points=3, task=1)
def test_softmax_backward_matches_reference(impl, ref, rng):
    """softmax_backward gives y * (dy - sum(dy * y)) along the softmax's axis (rows, columns, batches, float32)"""
    for shape, axis, dtype in (((4, 5), -1, np.float64), ((4, 5), 0, np.float64), ((2, 3, 6), 1, np.float64),
                               ((3, 4, 5), -1, np.float32)):
        y = ref.softmax.softmax(normal(rng, shape, dtype, 2.0), axis=axis)
        dy = normal(rng, shape, dtype)
        call = call_text("softmax_backward", arg("y", y), arg("dy", dy), f"axis={axis}")
        expect_close(impl.attention_backward.softmax_backward(y, dy, axis=axis),
                     ref.attention_backward.softmax_backward(y, dy, axis=axis), call=call)


@check(points=1, task=1)
def test_softmax_backward_finite_differences(impl, ref, rng):
    """softmax_backward agrees with central finite differences of sum(dy * softmax(x)) (step 1e-6, within 1e-6)"""
    x, dy = normal(rng, (3, 5), scale=2.0), normal(rng, (3, 5))
    y = ref.softmax.softmax(x)
    numeric = central_differences(lambda x: float(np.sum(dy * ref.softmax.softmax(x))), [x], 0)
    expect_close(impl.attention_backward.softmax_backward(y, dy), numeric, rtol=0, atol=AGREEMENT,
                 call=call_text("softmax_backward", arg("y", y), arg("dy", dy)),
                 origin=ref.attention_backward.softmax_backward(y, dy))


@check(points=1, task=1)
def test_softmax_backward_saturated(impl, ref, rng):
    """softmax_backward on a saturated softmax (unscaled scores of 512-dimensional vectors): tiny, but not zero"""
    Q, K = normal(rng, (6, 512)), normal(rng, (6, 512))
    y = ref.softmax.softmax(Q @ K.T)                             # scores with a spread near sqrt(512) ~ 23
    dy = normal(rng, (6, 6))
    call = call_text("softmax_backward", arg("y", y), arg("dy", dy))
    expect_close(impl.attention_backward.softmax_backward(y, dy), ref.attention_backward.softmax_backward(y, dy),
                 call=call, atol=1e-12)


@check(points=4, task=2)
def test_attention_backward_matches_reference(impl, ref, rng):
    """attention_backward returns (dQ, dK, dV) of sum(dO * attention output) (n_q != n_k, batches, float32, ints)"""
    # the first case has n_q == n_k, where a missing transpose still gives the right shapes
    for q, k, v, dtype in (((5, 4), (5, 4), (5, 3), np.float64), ((3, 6), (7, 6), (7, 2), np.float64),
                           ((2, 3, 4, 8), (2, 3, 6, 8), (2, 3, 6, 5), np.float64),
                           ((2, 4, 4), (2, 4, 4), (2, 4, 3), np.float32)):
        Q, K, V = normal(rng, q, dtype, 1.5), normal(rng, k, dtype, 1.5), normal(rng, v, dtype)
        check_backward(impl, ref, Q, K, V, normal(rng, (*q[:-1], v[-1]), dtype))
    check_backward(impl, ref, *INTEGER_ARGS)


@check(points=3, task=2)
def test_attention_backward_with_mask(impl, ref, rng):
    """masked keys get no gradient: causal and padding masks, as in the forward pass"""
    causal = np.tril(np.ones((5, 5), dtype=bool))
    padding = np.arange(6)[None, None, :] < np.array([6, 3])[:, None, None]    # (2, 1, 6)
    for q, k, v, mask in (((5, 4), (5, 4), (5, 3), causal), ((2, 4, 4), (2, 6, 4), (2, 6, 3), padding),
                          ((2, 5, 8), (2, 5, 8), (2, 5, 2), causal)):
        Q, K, V = normal(rng, q, scale=1.5), normal(rng, k, scale=1.5), normal(rng, v)
        check_backward(impl, ref, Q, K, V, normal(rng, (*q[:-1], v[-1])), mask)


@check(points=2, task=2)
def test_attention_backward_fully_masked_query(impl, ref, rng):
    """a query with no allowed key contributes zero gradient (its output is 0 whatever Q, K and V are)"""
    Q, K, V, dO = normal(rng, (3, 4)), normal(rng, (4, 4)), normal(rng, (4, 2)), normal(rng, (3, 2))
    mask = np.array([[True, True, False, False], [False] * 4, [True] * 4])
    dQ = ref.attention_backward.attention_backward(Q, K, V, dO, mask)[0]
    if np.any(dQ[1]):
        raise AssertionError("reference gives a fully masked query a gradient")
    check_backward(impl, ref, Q, K, V, dO, mask)


@check(points=2, task=2)
def test_attention_backward_finite_differences(impl, ref, rng):
    """attention_backward agrees with central finite differences (step 1e-6, within 1e-6), one query fully masked"""
    Q, K, V, dO = normal(rng, (3, 4)), normal(rng, (4, 4)), normal(rng, (4, 2)), normal(rng, (3, 2))
    mask = np.array([[True, False, True, True], [False] * 4, [True, True, True, False]])

    def loss(Q, K, V):
        return float(np.sum(dO * ref.attention.scaled_dot_product_attention(Q, K, V, mask)[0]))

    numeric = tuple(central_differences(loss, [Q, K, V], index) for index in range(3))
    expect_gradients(impl.attention_backward.attention_backward(Q, K, V, dO, mask), numeric, rtol=0, atol=AGREEMENT,
                     call=backward_call(Q, K, V, dO, mask),
                     origin=ref.attention_backward.attention_backward(Q, K, V, dO, mask))


@check(points=1, task=2, rule="dtype")
def test_attention_backward_dtypes(impl, ref, rng):
    """the gradients keep float32, and integer arrays give float64 gradients"""
    y, dy = ref.softmax.softmax(normal(rng, (3, 4), np.float32)), normal(rng, (3, 4), np.float32)
    expected = ref.attention_backward.softmax_backward(y, dy)
    expect_dtypes(impl.attention_backward.softmax_backward(y, dy), expected,
                  call=call_text("softmax_backward", arg("y", y), arg("dy", dy)))
    Q, K, V, dO = (normal(rng, shape, np.float32) for shape in ((3, 2), (4, 2), (4, 3), (3, 3)))
    for args in ((Q, K, V, dO), INTEGER_ARGS):
        expected = ref.attention_backward.attention_backward(*args)
        expect_dtypes(impl.attention_backward.attention_backward(*args), expected, call=backward_call(*args),
                      names=GRADIENTS)


@check(points=1, task=2, rule="untouched")
def test_backward_leaves_inputs_untouched(impl, ref, rng):
    """softmax_backward and attention_backward leave the caller's arrays as they were"""
    y, dy = ref.softmax.softmax(normal(rng, (3, 4))), normal(rng, (3, 4))
    expect_untouched(impl, "attention_backward", "softmax_backward", (y, dy), names=("y", "dy"),
                     expected=ref.attention_backward.softmax_backward(y, dy), mistake=MODIFIES_INPUT)
    Q, K, V, dO = normal(rng, (4, 3)), normal(rng, (5, 3)), normal(rng, (5, 2)), normal(rng, (4, 2))
    mask = rng.random((4, 5)) < 0.7
    mask[:, 0] = True
    expect_untouched(impl, "attention_backward", "attention_backward", (Q, K, V, dO), {"mask": mask},
                     names=("Q", "K", "V", "dO"), parts=("dQ", "dK", "dV"), mistake=MODIFIES_INPUT,
                     expected=ref.attention_backward.attention_backward(Q, K, V, dO, mask=mask))


@check(points=1, task=2, rule="raises")
def test_backward_rejects_mismatched_shapes(impl, ref, rng):
    """softmax_backward raises ValueError when y and dy differ in shape; attention_backward when dO does not have
    the shape of the attention's output"""
    y, dy = ref.softmax.softmax(normal(rng, (3, 4))), normal(rng, (3, 4))
    expect_close(impl.attention_backward.softmax_backward(y, dy), ref.attention_backward.softmax_backward(y, dy),
                 call=call_text("softmax_backward", arg("y", y), arg("dy", dy)))  # valid calls before errors
    Q, K, V = normal(rng, (3, 4)), normal(rng, (5, 4)), normal(rng, (5, 2))
    check_backward(impl, ref, Q, K, V, normal(rng, (3, 2)))
    for wrong in (dy[:, :3], dy[None]):
        expect_value_error(lambda wrong=wrong: impl.attention_backward.softmax_backward(y, wrong),
                           call=call_text("softmax_backward", arg("y", y), arg("dy", wrong)),
                           why="each entry of y needs its own gradient entry")
    for shape in ((3, 4), (5, 2), (2, 3, 2)):
        dO = normal(rng, shape)
        expect_value_error(lambda dO=dO: impl.attention_backward.attention_backward(Q, K, V, dO),
                           call=backward_call(Q, K, V, dO), why="dO has the shape of the output, (3, 2)")
