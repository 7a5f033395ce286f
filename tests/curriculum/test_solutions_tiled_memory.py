"""tiled_attention never materialises an n x n array: peak memory measured with tracemalloc.

At n = 2048 one n x n float64 matrix is 32 MiB (002: "16M floats = 64MB per head" at n = 4096);
the whole call, result included, must peak below 1/8 of that (4 MiB).
"""
import tracemalloc

import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention
from solutions.tiled_attention import tiled_attention

N, D = 2048, 64
FULL_MATRIX = N * N * np.dtype(np.float64).itemsize   # 32 MiB
BUDGET = FULL_MATRIX // 8                              # 4 MiB


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(2048)
    return tuple(rng.standard_normal((N, D)) for _ in range(3))


def peak_of(call):
    """(result, peak bytes allocated during ``call()`` alone); the inputs already exist."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak


def test_tracemalloc_sees_the_full_matrix_of_plain_attention(inputs):
    """The measurement can fail: plain attention holds (at least) the n x n weights."""
    Q, K, V = inputs
    _, peak = peak_of(lambda: scaled_dot_product_attention(Q, K, V))
    assert peak >= FULL_MATRIX


@pytest.mark.parametrize("is_causal", [False, True])
def test_peak_memory_under_an_eighth_of_the_full_matrix(inputs, is_causal):
    Q, K, V = inputs
    copies = [a.copy() for a in inputs]
    got, peak = peak_of(lambda: tiled_attention(Q, K, V, causal=is_causal))   # default block_size = 64
    assert peak < BUDGET, f"peak {peak / 2**20:.2f} MiB >= budget {BUDGET / 2**20:.0f} MiB"
    assert got.shape == (N, D) and got.dtype == np.float64
    for before, after in zip(copies, inputs):
        np.testing.assert_array_equal(after, before)
    rows = np.r_[0:3, N - 64:N]                           # the first rows (few keys if causal) and the last
    mask = (np.arange(N)[None, :] <= rows[:, None]) if is_causal else None
    want = scaled_dot_product_attention(Q[rows], K, V, mask)[0]
    np.testing.assert_allclose(got[rows], want, rtol=1e-9, atol=1e-12)


def test_peak_memory_scales_with_block_size_not_n_squared(inputs):
    Q, K, V = inputs
    _, small = peak_of(lambda: tiled_attention(Q, K, V, block_size=16))
    _, large = peak_of(lambda: tiled_attention(Q, K, V, block_size=256))
    assert small < BUDGET
    assert large > small                                  # the (n_q, block_size) tiles dominate
