"""Leading batch dimensions, e.g. (2, 3, n, d): every batched call equals the loop over the batch."""
import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention, self_attention
from solutions.masking import apply_mask, causal_mask, padding_mask
from solutions.multihead import merge_heads, multi_head_self_attention, split_heads
from solutions.positional import apply_rope
from solutions.softmax import softmax

BATCH = (2, 3)
CLOSE = {"rtol": 1e-12, "atol": 1e-14}


@pytest.fixture
def rng():
    return np.random.default_rng(20240)


def test_softmax_batched(rng):
    x = rng.standard_normal((*BATCH, 4, 5))
    y = softmax(x)
    for index in np.ndindex(*BATCH):
        np.testing.assert_allclose(y[index], softmax(x[index]), **CLOSE)


@pytest.mark.parametrize("mask_kind", ["none", "shared_causal", "per_batch", "padding"])
def test_scaled_dot_product_attention_batched(rng, mask_kind):
    n_q, n_k, d_k, d_v = 4, 4, 3, 5
    Q, K, V = (rng.standard_normal((*BATCH, n, d)) for n, d in ((n_q, d_k), (n_k, d_k), (n_k, d_v)))
    masks = {
        "none": None,
        "shared_causal": causal_mask(n_q),                                     # (n, n) for every batch entry
        "per_batch": rng.random((*BATCH, n_q, n_k)) < 0.6,                     # one mask each
        "padding": padding_mask([4, 2, 3, 1, 4, 2], n_k).reshape(*BATCH, 1, n_k),  # (2, 3, 1, n_k)
    }
    mask = masks[mask_kind]
    out, weights = scaled_dot_product_attention(Q, K, V, mask)
    assert out.shape == (*BATCH, n_q, d_v) and weights.shape == (*BATCH, n_q, n_k)
    for index in np.ndindex(*BATCH):
        m = None if mask is None else np.broadcast_to(mask, (*BATCH, n_q, n_k))[index]
        want_out, want_weights = scaled_dot_product_attention(Q[index], K[index], V[index], m)
        np.testing.assert_allclose(out[index], want_out, **CLOSE)
        np.testing.assert_allclose(weights[index], want_weights, **CLOSE)


def test_keys_and_values_broadcast_against_batched_queries(rng):
    Q = rng.standard_normal((*BATCH, 4, 3))
    K, V = rng.standard_normal((6, 3)), rng.standard_normal((6, 2))   # shared by every batch entry
    out, weights = scaled_dot_product_attention(Q, K, V)
    assert out.shape == (*BATCH, 4, 2) and weights.shape == (*BATCH, 4, 6)
    np.testing.assert_allclose(out[1, 2], scaled_dot_product_attention(Q[1, 2], K, V)[0], **CLOSE)


def test_self_attention_batched_with_causal_mask(rng):
    X = rng.standard_normal((*BATCH, 5, 6))
    W_Q, W_K, W_V = rng.standard_normal((6, 4)), rng.standard_normal((6, 4)), rng.standard_normal((6, 3))
    out, weights = self_attention(X, W_Q, W_K, W_V, causal_mask(5))
    assert out.shape == (*BATCH, 5, 3) and weights.shape == (*BATCH, 5, 5)
    np.testing.assert_array_equal(weights[..., ~causal_mask(5)], 0)
    for index in np.ndindex(*BATCH):
        want = self_attention(X[index], W_Q, W_K, W_V, causal_mask(5))
        np.testing.assert_allclose(out[index], want[0], **CLOSE)
        np.testing.assert_allclose(weights[index], want[1], **CLOSE)


def test_split_and_merge_heads_batched(rng):
    X = rng.standard_normal((*BATCH, 5, 12))
    heads = split_heads(X, 4)
    assert heads.shape == (*BATCH, 4, 5, 3)
    for index in np.ndindex(*BATCH):
        np.testing.assert_array_equal(heads[index], split_heads(X[index], 4))
    np.testing.assert_array_equal(merge_heads(heads), X)


@pytest.mark.parametrize("with_mask", [False, True])
def test_multi_head_self_attention_batched(rng, with_mask):
    n, d_model, n_heads = 5, 8, 2
    X = rng.standard_normal((*BATCH, n, d_model))
    W = [rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(4)]
    mask = (rng.random((*BATCH, n, n)) < 0.7) | np.eye(n, dtype=bool) if with_mask else None
    out, weights = multi_head_self_attention(X, *W, n_heads, mask)
    assert out.shape == (*BATCH, n, d_model) and weights.shape == (*BATCH, n_heads, n, n)
    for index in np.ndindex(*BATCH):
        want = multi_head_self_attention(X[index], *W, n_heads, None if mask is None else mask[index])
        np.testing.assert_allclose(out[index], want[0], **CLOSE)
        np.testing.assert_allclose(weights[index], want[1], **CLOSE)
        if with_mask:
            np.testing.assert_array_equal(weights[index][:, ~mask[index]], 0)


def test_apply_rope_batched(rng):
    x = rng.standard_normal((*BATCH, 5, 8))
    positions = np.array([0, 4, 2, 9, 1])
    for kwargs in ({}, {"positions": positions}):
        got = apply_rope(x, **kwargs)
        assert got.shape == x.shape
        for index in np.ndindex(*BATCH):
            np.testing.assert_allclose(got[index], apply_rope(x[index], **kwargs), **CLOSE)


def test_apply_rope_odd_d_batched_raises():
    with pytest.raises(ValueError):
        apply_rope(np.ones((*BATCH, 4, 5)))


def test_apply_mask_batched(rng):
    scores = rng.standard_normal((*BATCH, 4, 4))
    before = scores.copy()
    per_batch = rng.random((*BATCH, 4, 4)) < 0.5
    for mask in (causal_mask(4), per_batch, padding_mask([1, 2, 3, 4, 1, 2], 4).reshape(*BATCH, 1, 4)):
        got = apply_mask(scores, mask)
        full = np.broadcast_to(mask, scores.shape)
        np.testing.assert_array_equal(got[full], scores[full])
        assert np.all(np.isneginf(got[~full]))
    np.testing.assert_array_equal(scores, before)


def test_padding_mask_batch_rows():
    lengths = np.array([[3, 0], [1, 2]]).ravel()
    mask = padding_mask(lengths, 3)
    assert mask.shape == (4, 3)
    np.testing.assert_array_equal(mask.sum(axis=1), lengths)
