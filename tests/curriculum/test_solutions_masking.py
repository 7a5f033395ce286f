"""causal_mask, padding_mask and apply_mask (002 "Causal (Masked) Self-Attention", pitfall 2)."""
import numpy as np
import pytest

from solutions.masking import apply_mask, causal_mask, padding_mask
from solutions.softmax import softmax


@pytest.mark.parametrize("n", [1, 2, 5, 17])
def test_causal_mask_is_true_where_key_at_most_query(n):
    mask = causal_mask(n)
    assert mask.shape == (n, n) and mask.dtype == bool
    i, j = np.indices((n, n))
    np.testing.assert_array_equal(mask, j <= i)
    assert mask.sum() == n * (n + 1) // 2


def test_causal_mask_zero_length():
    assert causal_mask(0).shape == (0, 0)


def test_padding_mask_values():
    mask = padding_mask([3, 1, 0, 4], 4)
    assert mask.shape == (4, 4) and mask.dtype == bool
    np.testing.assert_array_equal(mask, [[1, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]])


def test_padding_mask_accepts_numpy_lengths_and_longer_max_len():
    lengths = np.array([2, 5])
    mask = padding_mask(lengths, 6)
    np.testing.assert_array_equal(mask, np.arange(6)[None, :] < lengths[:, None])
    np.testing.assert_array_equal(lengths, [2, 5])


def test_padding_mask_as_key_mask_in_attention_scores():
    """(batch, max_len) -> (batch, 1, max_len): every query of sequence b ignores its padded keys."""
    rng = np.random.default_rng(0)
    scores = rng.standard_normal((2, 4, 4))
    weights = softmax(apply_mask(scores, padding_mask([2, 3], 4)[:, None, :]))
    np.testing.assert_array_equal(weights[0][:, 2:], 0)
    np.testing.assert_array_equal(weights[1][:, 3:], 0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-15)


def test_apply_mask_puts_minus_inf_where_false_and_keeps_the_rest():
    scores = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    mask = np.array([[True, False, True], [False, False, True]])
    got = apply_mask(scores, mask)
    np.testing.assert_array_equal(got, [[1.0, -np.inf, 3.0], [-np.inf, -np.inf, 6.0]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_apply_mask_returns_a_copy_and_leaves_input_untouched(dtype):
    scores = np.arange(9, dtype=dtype).reshape(3, 3)
    before = scores.copy()
    all_true = np.ones((3, 3), dtype=bool)
    got = apply_mask(scores, all_true)
    np.testing.assert_array_equal(got, scores)
    assert got is not scores and not np.shares_memory(got, scores)
    got[0, 0] = 100
    masked = apply_mask(scores, causal_mask(3))
    np.testing.assert_array_equal(scores, before)
    assert masked.dtype == dtype
    assert np.isneginf(masked[0, 1]) and np.isneginf(masked[0, 2]) and np.isneginf(masked[1, 2])


def test_apply_mask_broadcasts_the_mask():
    scores = np.random.default_rng(1).standard_normal((2, 3, 4, 4))
    got = apply_mask(scores, causal_mask(4))
    assert got.shape == scores.shape
    for index in np.ndindex(2, 3):
        np.testing.assert_array_equal(got[index], np.where(causal_mask(4), scores[index], -np.inf))
    row_mask = np.array([True, True, False, True])   # (n_k,) broadcast over every query
    np.testing.assert_array_equal(np.isneginf(apply_mask(scores, row_mask))[..., 2], True)


def test_apply_mask_accepts_integer_masks_and_integer_scores():
    got = apply_mask([[1, 2], [3, 4]], [[1, 0], [1, 1]])
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [[1.0, -np.inf], [3.0, 4.0]])


def test_masked_softmax_gives_zero_weight_to_forbidden_keys():
    scores = np.random.default_rng(2).standard_normal((5, 5)) * 10
    weights = softmax(apply_mask(scores, causal_mask(5)))
    np.testing.assert_array_equal(weights[~causal_mask(5)], 0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-15)
    assert weights[0, 0] == 1.0
