"""scaled_dot_product_attention and self_attention (000, 002 "The Full Computation", 003)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solutions.attention import scaled_dot_product_attention, self_attention
from solutions.masking import causal_mask

FAST = settings(max_examples=30, deadline=None, database=None, derandomize=True)


def naive_attention(Q, K, V, mask=None):
    """Loops over queries and keys; no numpy broadcasting to share a bug with."""
    n_q, n_k = Q.shape[0], K.shape[0]
    out, weights = np.zeros((n_q, V.shape[1])), np.zeros((n_q, n_k))
    for i in range(n_q):
        allowed = [j for j in range(n_k) if mask is None or mask[i, j]]
        if not allowed:
            continue
        s = {j: float(Q[i] @ K[j]) / math.sqrt(Q.shape[1]) for j in allowed}
        top = max(s.values())
        total = sum(math.exp(v - top) for v in s.values())
        for j in allowed:
            weights[i, j] = math.exp(s[j] - top) / total
            out[i] += weights[i, j] * V[j]
    return out, weights


def random_qkv(rng, n_q, n_k, d_k, d_v):
    return rng.standard_normal((n_q, d_k)), rng.standard_normal((n_k, d_k)), rng.standard_normal((n_k, d_v))


@pytest.mark.parametrize("n_q, n_k, d_k, d_v", [(1, 1, 1, 1), (3, 5, 4, 2), (6, 2, 8, 7), (7, 7, 16, 16)])
def test_matches_naive_loops(n_q, n_k, d_k, d_v):
    rng = np.random.default_rng(n_q * 100 + n_k)
    Q, K, V = random_qkv(rng, n_q, n_k, d_k, d_v)
    mask = rng.random((n_q, n_k)) < 0.6
    for m in (None, mask):
        out, weights = scaled_dot_product_attention(Q, K, V, m)
        want_out, want_weights = naive_attention(Q, K, V, m)
        assert out.shape == (n_q, d_v) and weights.shape == (n_q, n_k)
        np.testing.assert_allclose(weights, want_weights, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(out, want_out, rtol=1e-10, atol=1e-12)


def test_scale_is_one_over_sqrt_d_k():
    # one query, two keys: the weight ratio is exp((q.k0 - q.k1) / sqrt(d_k))
    d_k = 9
    Q = np.ones((1, d_k))
    K = np.vstack([np.ones(d_k), np.zeros(d_k)])
    weights = scaled_dot_product_attention(Q, K, np.eye(2))[1]
    np.testing.assert_allclose(weights[0, 0] / weights[0, 1], np.exp(d_k / 3.0), rtol=1e-13)


@FAST
@given(n=st.integers(2, 8), d=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_self_attention_is_permutation_equivariant_without_mask(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    W_Q, W_K, W_V = (rng.standard_normal((d, d)) for _ in range(3))
    perm = rng.permutation(n)
    out, weights = self_attention(X, W_Q, W_K, W_V)
    out_p, weights_p = self_attention(X[perm], W_Q, W_K, W_V)
    np.testing.assert_allclose(out_p, out[perm], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights_p, weights[np.ix_(perm, perm)], rtol=1e-10, atol=1e-14)


def test_causal_mask_breaks_permutation_equivariance():
    rng = np.random.default_rng(3)
    X, W = rng.standard_normal((4, 3)), rng.standard_normal((3, 3))
    perm = np.array([3, 2, 1, 0])
    out = self_attention(X, W, W, W, causal_mask(4))[0]
    out_p = self_attention(X[perm], W, W, W, causal_mask(4))[0]
    assert not np.allclose(out_p, out[perm])


def test_causal_mask_blocks_the_future():
    rng = np.random.default_rng(4)
    n, d = 6, 4
    X = rng.standard_normal((n, d))
    W_Q, W_K, W_V = (rng.standard_normal((d, d)) for _ in range(3))
    out, weights = self_attention(X, W_Q, W_K, W_V, causal_mask(n))
    np.testing.assert_array_equal(np.triu(weights, k=1), 0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-14)
    for t in range(n):
        changed = X.copy()
        changed[t:] = rng.standard_normal((n - t, d)) * 5     # rewrite tokens t, t+1, ...
        out_changed = self_attention(changed, W_Q, W_K, W_V, causal_mask(n))[0]
        np.testing.assert_allclose(out_changed[:t], out[:t], rtol=1e-13, atol=1e-15)  # earlier outputs unchanged
        assert not np.allclose(out_changed[t], out[t])
    # without the mask, changing the last token changes the first output
    changed = X.copy()
    changed[-1] += 1
    assert not np.allclose(self_attention(changed, W_Q, W_K, W_V)[0][0], self_attention(X, W_Q, W_K, W_V)[0][0])


def test_fully_masked_rows_give_zero_weights_and_zero_output():
    rng = np.random.default_rng(5)
    Q, K, V = random_qkv(rng, 4, 5, 3, 2)
    mask = rng.random((4, 5)) < 0.7
    mask[1] = False
    mask[3] = False
    mask[0, 0] = True
    with np.errstate(invalid="raise", divide="raise"):
        out, weights = scaled_dot_product_attention(Q, K, V, mask)
    np.testing.assert_array_equal(weights[[1, 3]], 0)
    np.testing.assert_array_equal(out[[1, 3]], 0)
    np.testing.assert_allclose(weights[[0, 2]].sum(axis=-1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(weights[~mask], 0)
    everything_masked = scaled_dot_product_attention(Q, K, V, np.zeros((4, 5), dtype=bool))
    np.testing.assert_array_equal(everything_masked[0], 0)
    np.testing.assert_array_equal(everything_masked[1], 0)


def test_mask_broadcasts_over_queries():
    rng = np.random.default_rng(6)
    Q, K, V = random_qkv(rng, 3, 4, 2, 2)
    key_mask = np.array([True, False, True, False])
    got = scaled_dot_product_attention(Q, K, V, key_mask)
    want = scaled_dot_product_attention(Q, K, V, np.broadcast_to(key_mask, (3, 4)))
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1][:, [1, 3]], 0)


def test_self_attention_equals_projected_scaled_dot_product_attention():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((5, 6))
    W_Q, W_K, W_V = rng.standard_normal((6, 3)), rng.standard_normal((6, 3)), rng.standard_normal((6, 4))
    mask = causal_mask(5)
    got = self_attention(X, W_Q, W_K, W_V, mask)
    want = scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)
    assert got[0].shape == (5, 4) and got[1].shape == (5, 5)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14, atol=1e-15)


def test_huge_scores_stay_finite():
    Q = np.array([[100.0, 100.0]])
    K = np.array([[100.0, 100.0], [-100.0, 100.0]])
    out, weights = scaled_dot_product_attention(Q, K, np.eye(2))
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(weights, [[1.0, 0.0]], atol=1e-300)
