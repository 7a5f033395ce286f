"""split_heads, merge_heads and multi_head_self_attention (002 "Multi-Head Self-Attention", 003)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solutions.attention import scaled_dot_product_attention
from solutions.masking import causal_mask, padding_mask
from solutions.multihead import merge_heads, multi_head_self_attention, split_heads

FAST = settings(max_examples=40, deadline=None, database=None, derandomize=True)


@FAST
@given(batch=st.lists(st.integers(1, 3), max_size=2), n=st.integers(1, 5), n_heads=st.integers(1, 4),
       d_head=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_split_merge_round_trip_and_head_columns(batch, n, n_heads, d_head, seed):
    d_model = n_heads * d_head
    X = np.random.default_rng(seed).standard_normal((*batch, n, d_model))
    heads = split_heads(X, n_heads)
    assert heads.shape == (*batch, n_heads, n, d_head)
    for h in range(n_heads):
        np.testing.assert_array_equal(heads[..., h, :, :], X[..., h * d_head:(h + 1) * d_head])
    merged = merge_heads(heads)
    assert merged.shape == X.shape
    np.testing.assert_array_equal(merged, X)


def test_merge_heads_is_the_inverse_on_head_layout():
    rng = np.random.default_rng(0)
    heads = rng.standard_normal((2, 3, 4, 5))      # (batch, n_heads, n, d_head)
    merged = merge_heads(heads)
    assert merged.shape == (2, 4, 15)
    np.testing.assert_array_equal(merged[:, :, 5:10], heads[:, 1])
    np.testing.assert_array_equal(split_heads(merged, 3), heads)


def test_split_heads_small_example():
    X = np.arange(12).reshape(3, 4)                 # d_model = 4, h = 2 -> d_head = 2 (003)
    heads = split_heads(X, 2)
    np.testing.assert_array_equal(heads[0], [[0, 1], [4, 5], [8, 9]])
    np.testing.assert_array_equal(heads[1], [[2, 3], [6, 7], [10, 11]])


@pytest.mark.parametrize("d_model, n_heads", [(10, 3), (64, 7), (4, 8), (6, 4)])
def test_value_error_when_d_model_not_divisible(d_model, n_heads):
    X = np.zeros((2, d_model))
    with pytest.raises(ValueError):
        split_heads(X, n_heads)
    W = np.eye(d_model)
    with pytest.raises(ValueError):
        multi_head_self_attention(X, W, W, W, W, n_heads)


def loop_multihead(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    """Per-head slices, scaled_dot_product_attention per head, concat @ W_O (the formula of 000/002)."""
    d_head = X.shape[-1] // n_heads
    outs, weights = [], []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out, w = scaled_dot_product_attention(X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols], mask)
        outs.append(out)
        weights.append(w)
    return np.concatenate(outs, axis=-1) @ W_O, np.stack(weights, axis=-3)


@pytest.mark.parametrize("n, d_model, n_heads", [(1, 4, 1), (5, 8, 2), (6, 12, 3), (7, 16, 16), (10, 64, 8)])
@pytest.mark.parametrize("masked", [False, True])
def test_equals_per_head_loop_then_concat_at_W_O(n, d_model, n_heads, masked):
    rng = np.random.default_rng(n * d_model + n_heads)
    X = rng.standard_normal((n, d_model))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) / math.sqrt(d_model) for _ in range(4))
    mask = causal_mask(n) if masked else None
    out, weights = multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask)
    want_out, want_weights = loop_multihead(X, W_Q, W_K, W_V, W_O, n_heads, mask)
    assert out.shape == (n, d_model) and weights.shape == (n_heads, n, n)
    np.testing.assert_allclose(out, want_out, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(weights, want_weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-13)
    if masked:
        np.testing.assert_array_equal(weights[:, ~causal_mask(n)], 0)


def test_each_head_scales_by_sqrt_d_head_not_d_model():
    d_model, n_heads = 8, 2                          # d_head = 4: scale 1/2, not 1/sqrt(8)
    X = np.zeros((2, d_model))
    X[0, 0] = 1.0
    X[1, 1] = 1.0
    W_Q = np.zeros((d_model, d_model))
    W_Q[0, 0] = 3.0                                  # query of token 0, head 0 = (3, 0, 0, 0)
    W_K = np.zeros((d_model, d_model))
    W_K[0, 0] = 2.0                                  # key of token 0, head 0 = (2, 0, 0, 0)
    weights = multi_head_self_attention(X, W_Q, W_K, np.eye(d_model), np.eye(d_model), n_heads)[1]
    # token 0, head 0: scores (6, 0) / sqrt(4)
    np.testing.assert_allclose(weights[0, 0], [1 / (1 + math.exp(-3)), 1 / (1 + math.exp(3))], rtol=1e-14)
    np.testing.assert_allclose(weights[1], 0.5, rtol=0, atol=1e-16)   # head 1 sees zero queries


def test_one_mask_for_every_head_and_padding_mask_broadcasts():
    rng = np.random.default_rng(9)
    batch, n, d_model, n_heads = 2, 4, 6, 3
    X = rng.standard_normal((batch, n, d_model))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) for _ in range(4))
    key_mask = padding_mask([4, 2], n)[:, None, :]   # (batch, 1, n): broadcastable to (batch, n, n)
    out, weights = multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, key_mask)
    assert out.shape == (batch, n, d_model) and weights.shape == (batch, n_heads, n, n)
    np.testing.assert_array_equal(weights[1, :, :, 2:], 0)
    for b in range(batch):
        want = loop_multihead(X[b], W_Q, W_K, W_V, W_O, n_heads, key_mask[b])
        np.testing.assert_allclose(out[b], want[0], rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(weights[b], want[1], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_one_dimensional_key_mask(batch):
    """A (n,) key mask broadcasts to (..., n, n), as the docstring allows: the same for every query and head."""
    rng = np.random.default_rng(11)
    n, d_model, n_heads = 5, 6, 3
    X = rng.standard_normal((*batch, n, d_model))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) for _ in range(4))
    keys = np.array([True, False, True, True, False])
    out, weights = multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, keys)
    assert out.shape == (*batch, n, d_model) and weights.shape == (*batch, n_heads, n, n)
    np.testing.assert_array_equal(weights[..., ~keys], 0)
    want = multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, np.broadcast_to(keys, (n, n)))
    np.testing.assert_allclose(out, want[0], rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(weights, want[1], rtol=1e-12, atol=1e-15)


def test_single_head_equals_self_attention_then_W_O():
    from solutions.attention import self_attention

    rng = np.random.default_rng(10)
    X = rng.standard_normal((5, 4))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((4, 4)) for _ in range(4))
    out, weights = multi_head_self_attention(X, W_Q, W_K, W_V, W_O, 1)
    single_out, single_weights = self_attention(X, W_Q, W_K, W_V)
    np.testing.assert_allclose(out, single_out @ W_O, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(weights[0], single_weights, rtol=1e-12, atol=1e-15)
