"""cross_attention: queries from X, keys and values from Z ("Attention Is All You Need" 3.2.3)."""
import copy

import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention, self_attention
from solutions.cross_attention import cross_attention
from solutions.masking import padding_mask
from tests.curriculum.test_solutions_dtypes import make_inputs

CLOSE = {"rtol": 1e-12, "atol": 1e-14}


@pytest.fixture
def rng():
    return np.random.default_rng(313)


@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
def test_equals_sdpa_on_the_projected_inputs(rng, batch):
    n_q, n_kv, d_x, d_z, d_k, d_v = 4, 6, 5, 3, 4, 2
    X, Z = rng.standard_normal((*batch, n_q, d_x)), rng.standard_normal((*batch, n_kv, d_z))
    W_Q, W_K, W_V = rng.standard_normal((d_x, d_k)), rng.standard_normal((d_z, d_k)), rng.standard_normal((d_z, d_v))
    out, weights = cross_attention(X, Z, W_Q, W_K, W_V)
    want_out, want_weights = scaled_dot_product_attention(X @ W_Q, Z @ W_K, Z @ W_V)
    assert out.shape == (*batch, n_q, d_v) and weights.shape == (*batch, n_q, n_kv)
    np.testing.assert_allclose(out, want_out, **CLOSE)
    np.testing.assert_allclose(weights, want_weights, **CLOSE)


def test_with_Z_equal_to_X_it_is_self_attention(rng):
    X = rng.standard_normal((5, 4))
    W_Q, W_K, W_V = (rng.standard_normal((4, 3)) for _ in range(3))
    for got, want in zip(cross_attention(X, X, W_Q, W_K, W_V), self_attention(X, W_Q, W_K, W_V)):
        np.testing.assert_allclose(got, want, **CLOSE)


def test_padded_source_tokens_are_ignored(rng):
    lengths, n_kv, n_q, d = [5, 2, 3], 5, 4, 3
    X, Z = rng.standard_normal((3, n_q, d)), rng.standard_normal((3, n_kv, d))
    W_Q, W_K, W_V = (rng.standard_normal((d, d)) for _ in range(3))
    mask = padding_mask(lengths, n_kv)                        # (3, n_kv)
    out, weights = cross_attention(X, Z, W_Q, W_K, W_V, mask)
    for b, length in enumerate(lengths):
        np.testing.assert_array_equal(weights[b, :, length:], 0)
        np.testing.assert_allclose(weights[b].sum(axis=-1), 1.0, rtol=0, atol=1e-14)
        trimmed = cross_attention(X[b], Z[b, :length], W_Q, W_K, W_V)   # the padding removed
        np.testing.assert_allclose(out[b], trimmed[0], **CLOSE)
        np.testing.assert_allclose(weights[b, :, :length], trimmed[1], **CLOSE)
    Z_changed = Z.copy()
    Z_changed[1, 2:] = 1e3 * rng.standard_normal((n_kv - 2, d))    # whatever sits in the padding
    np.testing.assert_allclose(cross_attention(X, Z_changed, W_Q, W_K, W_V, mask)[0], out, **CLOSE)


def test_no_real_source_token_gives_zeros(rng):
    X, Z = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4))
    W = rng.standard_normal((4, 4))
    mask = padding_mask([0, 5], 5)
    out, weights = cross_attention(X, Z, W, W, W, mask)
    assert not np.isnan(out).any()
    np.testing.assert_array_equal(out[0], 0)
    np.testing.assert_array_equal(weights[0], 0)


@pytest.mark.parametrize("kind, want", [("float32", np.float32), ("float64", np.float64), ("int", np.float64),
                                        ("list", np.float64)])
def test_dtypes_and_inputs_untouched(kind, want):
    args = make_inputs([(2, 3, 4), (2, 5, 6), (4, 3), (6, 3), (6, 2)], kind, seed=3)
    before = copy.deepcopy(args)
    mask = np.array([[True] * 5, [True, True, False, False, False]])
    out, weights = cross_attention(*args, key_padding_mask=mask)
    assert out.dtype == weights.dtype == want
    for old, new in zip(before, args):
        np.testing.assert_array_equal(np.asarray(new), np.asarray(old))


def test_value_errors_say_what_is_wrong(rng):
    W = np.eye(3)
    with pytest.raises(ValueError, match="leading dimensions"):
        cross_attention(np.ones((2, 4, 3)), np.ones((3, 5, 3)), W, W, W)
    with pytest.raises(ValueError, match="key_padding_mask"):
        cross_attention(np.ones((2, 4, 3)), np.ones((2, 5, 3)), W, W, W, np.ones((2, 4), dtype=bool))
