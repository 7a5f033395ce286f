"""ALiBi slopes and biases, sliding-window masks and attention with an additive bias
("Train Short, Test Long" 2021, "Longformer" 2020)."""
import math

import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention
from solutions.masking import causal_mask
from solutions.position_bias import alibi_bias, alibi_slopes, biased_attention, sliding_window_mask
from solutions.softmax import softmax

CLOSE = {"rtol": 1e-12, "atol": 1e-14}


def paper_slopes(n):
    """The ALiBi paper's construction, written out independently: a geometric sequence that starts
    at 2**(-8/n) with that same ratio for a power of two; otherwise the closest lower power of two's
    slopes, then every other slope of twice that many heads."""
    if math.log2(n).is_integer():
        start = 2.0 ** (-8.0 / n)
        return [start ** (h + 1) for h in range(n)]
    closest = 2 ** math.floor(math.log2(n))
    return paper_slopes(closest) + paper_slopes(2 * closest)[0::2][:n - closest]


def test_eight_heads_give_one_half_to_one_over_256():
    np.testing.assert_allclose(alibi_slopes(8), [1 / 2**k for k in range(1, 9)], rtol=1e-15)
    assert alibi_slopes(8).dtype == np.float64


@pytest.mark.parametrize("n_heads", [1, 2, 3, 5, 6, 7, 12, 16, 20, 24, 40, 64, 96])
def test_slopes_follow_the_papers_construction(n_heads):
    slopes = alibi_slopes(n_heads)
    assert slopes.shape == (n_heads,)
    np.testing.assert_allclose(slopes, paper_slopes(n_heads), rtol=1e-14)
    assert len(set(slopes.tolist())) == n_heads and np.all((0 < slopes) & (slopes < 1))


def test_non_power_of_two_interleaves_the_doubled_sequence():
    # 12 heads: the 8 slopes 1/2 .. 1/256, then slopes 0, 2, 4, 6 of 16 heads: 2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5
    want = [2.0 ** -k for k in range(1, 9)] + [2.0 ** -(k + 0.5) for k in range(4)]
    np.testing.assert_allclose(alibi_slopes(12), want, rtol=1e-15)
    with pytest.raises(ValueError, match="n_heads"):
        alibi_slopes(0)


def test_bias_is_minus_slope_times_distance():
    bias = alibi_bias(4, 3, 5)
    slopes = alibi_slopes(4)
    assert bias.shape == (4, 3, 5) and bias.dtype == np.float64
    for h, i, j in np.ndindex(*bias.shape):
        assert bias[h, i, j] == -slopes[h] * abs(i + 2 - j)
    np.testing.assert_array_equal(alibi_bias(4, 6), alibi_bias(4, 6, 6))


def test_bias_is_shift_invariant():
    n, s = 9, 3
    bias = alibi_bias(8, n)
    np.testing.assert_array_equal(bias[:, s:, s:], bias[:, :-s, :-s])   # depends on i - j only
    for n_q in (1, 4, 9):                                               # the last n_q queries of the full table
        np.testing.assert_array_equal(alibi_bias(8, n_q, n), bias[:, n - n_q:, :])


def test_under_a_causal_mask_the_bias_equals_slope_times_key_position():
    """-m (i - j) and +m j differ by -m i, a constant per query row, which the softmax ignores."""
    rng = np.random.default_rng(5)
    n, n_heads = 7, 4
    scores = rng.standard_normal((n_heads, n, n))
    mask = causal_mask(n)
    with_alibi = softmax(np.where(mask, scores + alibi_bias(n_heads, n), -np.inf))
    by_key = alibi_slopes(n_heads)[:, None, None] * np.arange(n)[None, None, :]   # (nh, 1, n)
    np.testing.assert_allclose(with_alibi, softmax(np.where(mask, scores + by_key, -np.inf)), **CLOSE)


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_a_window_of_n_is_the_causal_mask(n):
    np.testing.assert_array_equal(sliding_window_mask(n, n), causal_mask(n))
    np.testing.assert_array_equal(sliding_window_mask(n, n + 3), causal_mask(n))
    np.testing.assert_array_equal(sliding_window_mask(n, 1), np.eye(n, dtype=bool))
    np.testing.assert_array_equal(sliding_window_mask(n, n, causal=False), np.ones((n, n), dtype=bool))


def test_window_counts_and_symmetry():
    n, window = 10, 3
    mask = sliding_window_mask(n, window)
    assert mask.dtype == np.bool_ and mask.shape == (n, n)
    np.testing.assert_array_equal(mask.sum(axis=1), np.minimum(np.arange(n) + 1, window))   # itself + 2 before
    assert mask[5, 3] and not mask[5, 2] and not mask[5, 6]
    both = sliding_window_mask(n, window, causal=False)
    np.testing.assert_array_equal(both, both.T)
    np.testing.assert_array_equal(both, mask | mask.T)
    for window in (0, -2):
        with pytest.raises(ValueError, match="window"):
            sliding_window_mask(n, window)


def test_biased_attention_without_bias_is_sdpa():
    rng = np.random.default_rng(6)
    Q, K, V = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 5, 3)), rng.standard_normal((2, 5, 2))
    mask = rng.random((2, 4, 5)) < 0.6
    for bias in (None, np.zeros((4, 5))):
        for got, want in zip(biased_attention(Q, K, V, bias, mask), scaled_dot_product_attention(Q, K, V, mask)):
            np.testing.assert_allclose(got, want, **CLOSE)


def test_bias_is_added_after_the_scaling_and_masked_keys_get_no_weight():
    rng = np.random.default_rng(7)
    n_heads, n, d = 4, 6, 16
    Q, K, V = (rng.standard_normal((n_heads, n, d)) for _ in range(3))
    bias = alibi_bias(n_heads, n)
    bias[:, :, -1] = 50.0                                    # a huge bias on a key the mask forbids
    mask = causal_mask(n)
    out, weights = biased_attention(Q, K, V, bias, mask)
    scores = np.where(mask, Q @ np.swapaxes(K, -1, -2) / math.sqrt(d) + bias, -np.inf)
    np.testing.assert_allclose(weights, softmax(scores), **CLOSE)
    np.testing.assert_allclose(out, softmax(scores) @ V, **CLOSE)
    assert np.all(weights[:, :-1, -1] == 0)


def test_fully_masked_rows_dtypes_and_untouched_inputs():
    rng = np.random.default_rng(8)
    Q, K, V = (rng.standard_normal((2, 3, 4)).astype(np.float32) for _ in range(3))
    bias = alibi_bias(2, 3)                                  # float64
    copies = [a.copy() for a in (Q, K, V, bias)]
    mask = np.array([[True, False, False], [False, False, False], [True, True, True]])
    out, weights = biased_attention(Q, K, V, bias, mask)
    assert out.dtype == weights.dtype == np.float32
    np.testing.assert_array_equal(weights[:, 1], 0)
    np.testing.assert_array_equal(out[:, 1], 0)
    for before, after in zip(copies, (Q, K, V, bias)):
        np.testing.assert_array_equal(after, before)
    ints = np.arange(12).reshape(3, 4) % 3
    assert biased_attention(ints, ints, ints, np.zeros((3, 3), dtype=int))[0].dtype == np.float64
    assert biased_attention(ints.tolist(), ints.tolist(), ints.tolist())[1].dtype == np.float64


def test_a_bias_that_does_not_fit_the_scores_is_a_value_error():
    Q = np.zeros((3, 4))
    with pytest.raises(ValueError, match="bias of shape"):
        biased_attention(Q, Q, Q, np.zeros((3, 2)))
    with pytest.raises(ValueError, match="bias of shape"):
        biased_attention(Q, Q, Q, np.zeros((2, 3, 3)))         # would add a head axis the inputs do not have
