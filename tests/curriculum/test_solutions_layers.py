"""The layers reference: LayerNorm, RMSNorm, GPT-2's tanh GELU, linear and the MLP, on their edge cases and against
PyTorch (float64) where the optional ``torch`` extra is installed."""
import math

import numpy as np
import pytest

from solutions.layers import feed_forward, gelu, layer_norm, linear, rms_norm


@pytest.fixture
def rng():
    return np.random.default_rng(24)


def test_layer_norm_rows_have_mean_beta_and_spread_gamma(rng):
    x = rng.standard_normal((2, 3, 16)) * 4 + 7
    out = layer_norm(x, np.full(16, 2.0), np.full(16, 0.5))
    np.testing.assert_allclose(out.mean(axis=-1), 0.5, atol=1e-12)
    np.testing.assert_allclose(out.std(axis=-1), 2.0 / np.sqrt(1 + 1e-5 / x.var(axis=-1)), rtol=1e-12)


def test_constant_rows_and_one_feature_give_beta():
    beta = np.array([0.25, -1.0, 3.0])
    np.testing.assert_array_equal(layer_norm(np.full((2, 3), 1e6), np.ones(3), beta), np.tile(beta, (2, 1)))
    np.testing.assert_array_equal(layer_norm(np.array([[5.0], [-2.0]]), np.array([9.0]), np.array([0.5])), 0.5)


def test_layer_norm_is_accurate_with_a_large_offset(rng):
    noise = rng.standard_normal((4, 16))
    gamma, beta = np.ones(16), np.zeros(16)
    assert np.abs(layer_norm(1e6 + noise, gamma, beta) - layer_norm(noise, gamma, beta)).max() < 1e-9


def test_rms_norm_keeps_the_mean_and_zero_rows():
    np.testing.assert_allclose(rms_norm(np.array([3.0, 4.0]), np.ones(2), eps=0.0), np.array([3.0, 4.0]) / 12.5 ** 0.5)
    np.testing.assert_array_equal(rms_norm(np.zeros((2, 4)), np.ones(4)), 0.0)


def test_gelu_limits_and_finiteness():
    assert gelu(np.array([0.0]))[0] == 0.0
    np.testing.assert_array_equal(gelu(np.array([1e30, -1e30, 1e300, -1e300])), [1e30, 0.0, 1e300, 0.0])
    big = gelu(np.array([3e38, -3e38], dtype=np.float32))
    assert big.dtype == np.float32 and np.isfinite(big).all()
    x = np.linspace(-3, 3, 13)
    exact = 0.5 * x * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x]))
    assert 1e-4 < np.abs(gelu(x) - exact).max() < 1e-3  # the tanh form, not the erf one


def test_linear_uses_the_weight_in_out():
    x, weight, bias = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4), np.ones(4)
    np.testing.assert_array_equal(linear(x, {"weight": weight, "bias": bias}), x @ weight + bias)


@pytest.mark.parametrize("function", ["linear", "layer_norm", "rms_norm", "gelu", "feed_forward"])
def test_dtypes_are_kept_and_inputs_untouched(rng, function):
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((3, 4)).astype(dtype)
        lin = {"weight": rng.standard_normal((4, 4)).astype(dtype), "bias": rng.standard_normal(4).astype(dtype)}
        args = {"linear": (x, lin), "layer_norm": (x, lin["bias"], lin["bias"]), "rms_norm": (x, lin["bias"]),
                "gelu": (x,), "feed_forward": (x, {"c_fc": lin, "c_proj": lin})}[function]
        copies = [np.copy(a) if isinstance(a, np.ndarray) else {k: v.copy() for k, v in a.items()} for a in args]
        out = {"linear": linear, "layer_norm": layer_norm, "rms_norm": rms_norm, "gelu": gelu,
               "feed_forward": feed_forward}[function](*args)
        assert out.dtype == dtype
        for before, after in zip(copies, args):
            if isinstance(before, dict):
                assert all(np.array_equal(before[k], after[k]) for k in before)
            else:
                np.testing.assert_array_equal(before, after)
    integer = {"linear": linear([[1, 2, 3, 4]], lin), "gelu": gelu([1, 2]), "rms_norm": rms_norm([[1, 2]], [1.0, 1.0]),
               "layer_norm": layer_norm([[1, 2]], [1.0, 1.0], [0.0, 0.0]),
               "feed_forward": feed_forward([[1, 2, 3, 4]], {"c_fc": lin, "c_proj": lin})}[function]
    assert integer.dtype == np.float64


@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_norms_and_gelu_match_torch(rng, offset, torch):
    F = torch.nn.functional
    x = rng.standard_normal((2, 5, 16)) * 3 + offset
    gamma, beta = rng.standard_normal(16), rng.standard_normal(16)
    tx = torch.from_numpy(x)
    want = F.layer_norm(tx, (16,), torch.from_numpy(gamma), torch.from_numpy(beta), 1e-5).numpy()
    np.testing.assert_allclose(layer_norm(x, gamma, beta), want, rtol=1e-9, atol=1e-9)
    want = F.rms_norm(tx, (16,), torch.from_numpy(gamma), 1e-6).numpy()
    np.testing.assert_allclose(rms_norm(x, gamma), want, rtol=1e-12, atol=1e-12)
    want = F.gelu(tx - offset, approximate="tanh").numpy()
    np.testing.assert_allclose(gelu(x - offset), want, rtol=1e-12, atol=1e-14)
