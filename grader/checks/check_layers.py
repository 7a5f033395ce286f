"""Checks for exercise ``layers``: linear (Conv1D layout), LayerNorm, RMSNorm, GPT-2's tanh GELU and the MLP."""
import numpy as np

from grader.checks.common import expect_dtypes, normal
from grader.checks.gpt2_params import layer_norm_params, linear_params, mlp_params
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_close
from grader.mistakes.layers import MODIFIES_INPUT


def linear_call(x, params):
    return call_text("linear", arg("x", x), arg("params", params))


def norm_call(function, x, *weights, eps=None):
    names = ("gamma", "beta") if function == "layer_norm" else ("weight",)
    return call_text(function, arg("x", x), *(arg(name, w) for name, w in zip(names, weights)),
                     *(() if eps is None else (f"eps={eps}",)))


def check_linear(impl, ref, x, params):
    expect_close(impl.layers.linear(x, params), ref.layers.linear(x, params), call=linear_call(x, params))


def check_layer_norm(impl, ref, x, gamma, beta, eps=None, **tolerances):
    options = {} if eps is None else {"eps": eps}
    expected = ref.layers.layer_norm(x, gamma, beta, **options)
    expect_close(impl.layers.layer_norm(x, gamma, beta, **options), expected,
                 call=norm_call("layer_norm", x, gamma, beta, eps=eps), **tolerances)


def check_rms_norm(impl, ref, x, weight, eps=None):
    options = {} if eps is None else {"eps": eps}
    expected = ref.layers.rms_norm(x, weight, **options)
    expect_close(impl.layers.rms_norm(x, weight, **options), expected, call=norm_call("rms_norm", x, weight, eps=eps))


def check_gelu(impl, ref, x):
    expect_close(impl.layers.gelu(x), ref.layers.gelu(x), call=call_text("gelu", arg("x", x)))


def check_feed_forward(impl, ref, x, params):
    expect_close(impl.layers.feed_forward(x, params), ref.layers.feed_forward(x, params),
                 call=call_text("feed_forward", arg("x", x), arg("params", params)))


@check(points=2, task=1)
def test_linear_matches_reference(impl, ref, rng):
    """linear is x @ weight + bias with the weight stored (d_in, d_out) (square and not, batches, float32, ints)"""
    # the square case comes first: there a transposed weight gives the right shape and wrong values
    for x_shape, d_out, dtype in (((4, 6), 6, np.float64), ((2, 3, 8), 5, np.float64), ((3, 4), 7, np.float32)):
        check_linear(impl, ref, normal(rng, x_shape, dtype), linear_params(rng, x_shape[-1], d_out, dtype))
    check_linear(impl, ref, np.array([[1, 0, 2], [-1, 3, 0]]), linear_params(rng, 3, 2))


@check(points=3, task=2)
def test_layer_norm_matches_reference(impl, ref, rng):
    """layer_norm normalises each token's features, then scales by gamma and shifts by beta (batches, float32,
    another eps)"""
    ln = layer_norm_params(rng, 8)   # rows of spread 0.01 first: there eps (1e-5, inside the root) shows
    x = 1.0 + normal(rng, (4, 8), scale=0.01)
    check_layer_norm(impl, ref, x, ln["weight"], ln["bias"])
    check_layer_norm(impl, ref, x, ln["weight"], ln["bias"], eps=1e-3)   # the argument, not a constant
    for x_shape, dtype in (((4, 8), np.float64), ((2, 3, 16), np.float64), ((5, 6), np.float32)):
        d = x_shape[-1]
        x = normal(rng, x_shape, dtype, 3.0) + normal(rng, x_shape[:-1] + (1,), dtype, 2.0)  # rows with offsets
        ln = layer_norm_params(rng, d, dtype)
        check_layer_norm(impl, ref, x, ln["weight"], ln["bias"])
    ln = layer_norm_params(rng, 3)
    check_layer_norm(impl, ref, np.array([[1, 2, 4], [0, 0, 9]]), ln["weight"], ln["bias"])


@check(points=1, task=2)
def test_layer_norm_constant_rows(impl, ref, rng):
    """a constant row (and any row when d = 1) normalises to 0, so layer_norm returns beta there: no NaN"""
    ln = layer_norm_params(rng, 5)
    x = np.vstack([np.full(5, 3.0), normal(rng, (1, 5)), np.zeros(5)])
    check_layer_norm(impl, ref, x, ln["weight"], ln["bias"])
    ln = layer_norm_params(rng, 1)
    check_layer_norm(impl, ref, normal(rng, (4, 1)), ln["weight"], ln["bias"])


@check(points=1, task=2, visibility="hidden")
def test_layer_norm_large_offset(impl, ref, rng):
    """rows of 1e6 + N(0, 1) in float64 normalise to within 1e-8 (the variance computed from centred values)"""
    x = 1e6 + normal(rng, (4, 16))
    ln = layer_norm_params(rng, 16)
    check_layer_norm(impl, ref, x, ln["weight"], ln["bias"], rtol=0.0, atol=1e-8)


@check(points=3, task=3)
def test_rms_norm_matches_reference(impl, ref, rng):
    """rms_norm divides rows by their root mean square, uncentred: rows 5 + noise keep their offset, zero rows give 0
    (and another eps)"""
    x = np.vstack([5.0 + normal(rng, (2, 8), scale=0.1), np.zeros((1, 8))])
    check_rms_norm(impl, ref, x, layer_norm_params(rng, 8)["weight"])
    check_rms_norm(impl, ref, normal(rng, (3, 8), scale=0.05), layer_norm_params(rng, 8)["weight"], eps=1e-2)
    for x_shape, dtype in (((2, 3, 6), np.float64), ((3, 16), np.float32)):
        x = normal(rng, x_shape, dtype, 2.0) + normal(rng, x_shape[:-1] + (1,), dtype)
        check_rms_norm(impl, ref, x, layer_norm_params(rng, x_shape[-1], dtype)["weight"])
    check_rms_norm(impl, ref, np.array([[3, 4], [1, -1]]), np.array([1.0, 2.0]))


@check(points=2, task=4)
def test_gelu_matches_reference(impl, ref, rng):
    """gelu is GPT-2's tanh approximation, not the erf or sigmoid form (from -6 to 6, batches, float32, ints)"""
    check_gelu(impl, ref, np.linspace(-6.0, 6.0, 25))
    for shape, dtype in (((3, 4, 5), np.float64), ((4, 6), np.float32)):
        check_gelu(impl, ref, normal(rng, shape, dtype, 2.0))
    check_gelu(impl, ref, [[-3, -1, 0], [1, 2, 3]])


@check(points=1, task=4, visibility="hidden")
def test_gelu_large_inputs(impl, ref, rng):
    """gelu stays finite for huge inputs: +-1e30 and +-1e200 in float64, +-3e38 in float32 (x and 0)"""
    check_gelu(impl, ref, np.array([1e30, -1e30, 1e200, -1e200, 40.0, -40.0]))
    check_gelu(impl, ref, np.array([3e38, -3e38, 20.0, -20.0], dtype=np.float32))


@check(points=2, task=5)
def test_feed_forward_matches_reference(impl, ref, rng):
    """feed_forward is linear(gelu(linear(x, c_fc)), c_proj) (d_ff = 4d and another d_ff, batches, float32)"""
    for x_shape, d_ff, dtype in (((5, 8), 32, np.float64), ((2, 3, 6), 10, np.float64), ((4, 8), 32, np.float32)):
        x = normal(rng, x_shape, dtype)
        check_feed_forward(impl, ref, x, mlp_params(rng, x_shape[-1], d_ff, dtype))


@check(points=1, task=5, rule="dtype")
def test_layers_dtypes(impl, ref, rng):
    """float32 inputs and parameters give float32 results in all five functions; integer inputs give float64"""
    for dtype, x in ((np.float32, normal(rng, (3, 4), np.float32)), (np.float64, np.array([[1, -2, 0, 3]]))):
        lin, ln, mlp = linear_params(rng, 4, 4, dtype), layer_norm_params(rng, 4, dtype), mlp_params(rng, 4, 8, dtype)
        for function, args, call in (
                ("linear", (x, lin), linear_call(x, lin)),
                ("layer_norm", (x, ln["weight"], ln["bias"]), norm_call("layer_norm", x, ln["weight"], ln["bias"])),
                ("rms_norm", (x, ln["weight"]), norm_call("rms_norm", x, ln["weight"])),
                ("gelu", (x,), call_text("gelu", arg("x", x))),
                ("feed_forward", (x, mlp), call_text("feed_forward", arg("x", x), arg("params", mlp)))):
            expected = getattr(ref.layers, function)(*args)
            expect_dtypes(getattr(impl.layers, function)(*args), expected, call=call)


@check(points=1, task=5, rule="untouched")
def test_layers_leave_inputs_untouched(impl, ref, rng):
    """linear, layer_norm, rms_norm, gelu and feed_forward leave the caller's arrays and parameters as they were"""
    x = normal(rng, (3, 6))
    ln, mlp = layer_norm_params(rng, 6), mlp_params(rng, 6, 12)
    for function, args, names in (("linear", (x, mlp["c_fc"]), ("x", "params")),
                                  ("layer_norm", (x, ln["weight"], ln["bias"]), ("x", "gamma", "beta")),
                                  ("rms_norm", (x, ln["weight"]), ("x", "weight")),
                                  ("gelu", (x,), ("x",)),
                                  ("feed_forward", (x, mlp), ("x", "params"))):
        expect_untouched(impl, "layers", function, args, names=names, mistake=MODIFIES_INPUT,
                         expected=getattr(ref.layers, function)(*args))
