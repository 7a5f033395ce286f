"""tiled_attention equals full attention (002 "Memory: The Quadratic Problem", Flash Attention)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solutions.attention import scaled_dot_product_attention
from solutions.tiled_attention import tiled_attention

FAST = settings(max_examples=40, deadline=None, database=None, derandomize=True)


def causal(n_q, n_k):
    """Query i attends keys j <= i (also when n_q != n_k)."""
    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None]


def full(Q, K, V, is_causal):
    return scaled_dot_product_attention(Q, K, V, causal(len(Q), len(K)) if is_causal else None)[0]


def qkv(seed, n_q, n_k, d_k, d_v, scale=1.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n_q, d_k)) * scale, rng.standard_normal((n_k, d_k)) * scale,
            rng.standard_normal((n_k, d_v)))


@pytest.mark.parametrize("is_causal", [False, True])
@pytest.mark.parametrize("n, block_size", [(64, 16), (50, 16), (37, 8), (10, 1), (10, 3), (10, 10), (10, 11),
                                           (10, 1000), (1, 1), (1, 64), (130, 64)])
def test_equals_full_attention(n, block_size, is_causal):
    Q, K, V = qkv(n * 31 + block_size, n, n, 8, 5)
    got = tiled_attention(Q, K, V, block_size=block_size, causal=is_causal)
    assert got.shape == (n, 5) and got.dtype == np.float64
    np.testing.assert_allclose(got, full(Q, K, V, is_causal), rtol=1e-9, atol=1e-12)


def test_default_block_size_and_non_causal_default():
    Q, K, V = qkv(1, 200, 200, 4, 4)
    np.testing.assert_allclose(tiled_attention(Q, K, V), full(Q, K, V, False), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tiled_attention(Q, K, V, causal=True), full(Q, K, V, True), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("is_causal", [False, True])
@pytest.mark.parametrize("n_q, n_k", [(3, 17), (17, 3), (1, 40), (40, 1), (20, 33)])
def test_n_q_different_from_n_k(n_q, n_k, is_causal):
    Q, K, V = qkv(n_q * n_k, n_q, n_k, 6, 3)
    for block_size in (1, 4, 7, 64):
        got = tiled_attention(Q, K, V, block_size=block_size, causal=is_causal)
        assert got.shape == (n_q, 3)
        np.testing.assert_allclose(got, full(Q, K, V, is_causal), rtol=1e-9, atol=1e-12)


@FAST
@given(n_q=st.integers(1, 24), n_k=st.integers(1, 24), d_k=st.integers(1, 6), d_v=st.integers(1, 5),
       block_size=st.integers(1, 30), is_causal=st.booleans(), scale=st.sampled_from([0.1, 1.0, 10.0, 30.0]),
       seed=st.integers(0, 2**32 - 1))
def test_equals_full_attention_property(n_q, n_k, d_k, d_v, block_size, is_causal, scale, seed):
    Q, K, V = qkv(seed, n_q, n_k, d_k, d_v, scale)
    got = tiled_attention(Q, K, V, block_size=block_size, causal=is_causal)
    np.testing.assert_allclose(got, full(Q, K, V, is_causal), rtol=1e-9, atol=1e-12)


def test_large_scores_where_the_running_max_changes_between_blocks():
    # increasing scores: every block raises the running max, so the rescaling is exercised every time
    n = 32
    Q = np.ones((4, 1)) * 30.0
    K = np.linspace(-30, 30, n)[:, None]
    V = np.random.default_rng(5).standard_normal((n, 3))
    with np.errstate(over="raise", invalid="raise"):
        got = tiled_attention(Q, K, V, block_size=4)
    np.testing.assert_allclose(got, full(Q, K, V, False), rtol=1e-9, atol=1e-12)
    got = tiled_attention(Q, K[::-1].copy(), V[::-1].copy(), block_size=4)   # decreasing: max in block 1
    np.testing.assert_allclose(got, full(Q, K[::-1], V[::-1], False), rtol=1e-9, atol=1e-12)


def test_queries_without_any_allowed_key_get_zero_rows():
    # with causal=True query 0 always sees key 0, so the only way to have no allowed key is n_k = 0
    Q, K, V = qkv(2, 3, 0, 2, 4)
    with np.errstate(invalid="raise", divide="raise"):
        got = tiled_attention(Q, K, V, block_size=2)
    np.testing.assert_array_equal(got, np.zeros((3, 4)))


def test_does_not_modify_inputs():
    Q, K, V = qkv(3, 9, 9, 4, 4)
    copies = Q.copy(), K.copy(), V.copy()
    tiled_attention(Q, K, V, block_size=4, causal=True)
    for before, after in zip(copies, (Q, K, V)):
        np.testing.assert_array_equal(after, before)


@pytest.mark.parametrize("block_size", [0, -3])
def test_block_size_must_be_positive(block_size):
    Q, K, V = qkv(4, 3, 3, 2, 2)
    with pytest.raises(ValueError):
        tiled_attention(Q, K, V, block_size=block_size)
