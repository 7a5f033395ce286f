"""elu_feature_map and linear_attention ("Transformers are RNNs" 2020): the quadratic form regrouped,
causal running sums, and memory that never holds an n x n array (tracemalloc)."""
import copy

import numpy as np
import pytest

from solutions.linear_attention import elu_feature_map, linear_attention
from solutions.masking import causal_mask
from tests.curriculum.test_solutions_dtypes import make_inputs
from tests.curriculum.test_solutions_tiled_memory import peak_of

CLOSE = {"rtol": 1e-10, "atol": 1e-12}
N, D = 4096, 16
FULL_MATRIX = N * N * np.dtype(np.float64).itemsize   # 128 MiB


def quadratic_form(Q, K, V, causal=False, eps=1e-6):
    """(phi(Q) phi(K)^T) V divided by the row sums: the (n_q, n_k) matrix written out."""
    A = elu_feature_map(Q) @ np.swapaxes(elu_feature_map(K), -1, -2)   # (..., n_q, n_k)
    if causal:
        A = A * causal_mask(A.shape[-1])
    return (A @ V) / (A.sum(axis=-1, keepdims=True) + eps)


def test_elu_feature_map_values_and_dtypes():
    x = np.array([-3.0, -1.0, 0.0, 0.5, 2.0, 800.0])
    want = [np.exp(-3), np.exp(-1), 1.0, 1.5, 3.0, 801.0]
    with np.errstate(over="raise"):
        np.testing.assert_allclose(elu_feature_map(x), want, rtol=1e-15)
    assert elu_feature_map(x.astype(np.float32)).dtype == np.float32
    assert elu_feature_map([1, -1]).dtype == np.float64
    assert np.all(elu_feature_map(np.linspace(-30, 30, 101)) > 0)


@pytest.mark.parametrize("batch, n_q, n_k", [((), 4, 7), ((2,), 5, 5), ((2, 3), 3, 6)])
def test_equals_the_quadratic_form_normalised_by_row_sums(batch, n_q, n_k):
    rng = np.random.default_rng(n_q * n_k)
    Q, K = rng.standard_normal((*batch, n_q, 4)), rng.standard_normal((*batch, n_k, 4))
    V = rng.standard_normal((*batch, n_k, 3))
    got = linear_attention(Q, K, V)
    assert got.shape == (*batch, n_q, 3)
    np.testing.assert_allclose(got, quadratic_form(Q, K, V), **CLOSE)
    np.testing.assert_allclose(linear_attention(Q, K, V, eps=0.5), quadratic_form(Q, K, V, eps=0.5), **CLOSE)


@pytest.mark.parametrize("batch, n", [((), 1), ((), 6), ((2, 2), 5)])
def test_causal_form_equals_the_masked_quadratic_form(batch, n):
    rng = np.random.default_rng(n)
    Q, K, V = (rng.standard_normal((*batch, n, d)) for d in (4, 4, 3))
    got = linear_attention(Q, K, V, causal=True)
    np.testing.assert_allclose(got, quadratic_form(Q, K, V, causal=True), **CLOSE)
    # query 0 sees only key 0: phi(q0).phi(k0) v0 / (phi(q0).phi(k0) + eps)
    a = np.sum(elu_feature_map(Q[..., 0, :]) * elu_feature_map(K[..., 0, :]), axis=-1)[..., None]
    np.testing.assert_allclose(got[..., 0, :], a * V[..., 0, :] / (a + 1e-6), **CLOSE)


def test_causal_prefix_does_not_depend_on_later_tokens():
    rng = np.random.default_rng(11)
    Q, K, V = (rng.standard_normal((8, 4)) for _ in range(3))
    changed = [a.copy() for a in (Q, K, V)]
    for a in changed:
        a[5:] = 100 * rng.standard_normal((3, 4))
    np.testing.assert_allclose(linear_attention(*changed, causal=True)[:5], linear_attention(Q, K, V, causal=True)[:5],
                               **CLOSE)


def test_causal_needs_as_many_queries_as_keys():
    with pytest.raises(ValueError, match="n_q=3 and n_k=4"):
        linear_attention(np.zeros((3, 2)), np.zeros((4, 2)), np.zeros((4, 2)), causal=True)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("kind, want", [("float32", np.float32), ("float64", np.float64), ("int", np.float64),
                                        ("list", np.float64)])
def test_dtypes_and_untouched_inputs(kind, want, causal):
    args = make_inputs([(2, 5, 3)] * 3, kind, seed=12)
    before = copy.deepcopy(args)
    got = linear_attention(*args, causal=causal)
    assert got.dtype == want
    for old, new in zip(before, args):
        np.testing.assert_array_equal(np.asarray(new), np.asarray(old))
    if kind == "float32":
        wide = linear_attention(*(a.astype(np.float64) for a in args), causal=causal)
        np.testing.assert_allclose(got, wide, rtol=1e-4, atol=1e-5)


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(4096)
    return tuple(rng.standard_normal((N, D)) for _ in range(3))


def test_tracemalloc_sees_the_quadratic_form(inputs):
    """The measurement can fail: the quadratic form holds the n x n matrix."""
    Q, K, V = (a[:1024] for a in inputs)
    _, peak = peak_of(lambda: quadratic_form(Q, K, V))
    assert peak >= 1024 * 1024 * 8


@pytest.mark.parametrize("causal, fraction", [(False, 8), (True, 4)])
def test_peak_memory_at_n_4096_d_16(inputs, causal, fraction):
    Q, K, V = inputs
    got, peak = peak_of(lambda: linear_attention(Q, K, V, causal=causal))
    budget = FULL_MATRIX // fraction                     # 16 MiB without the causal mask, 32 MiB with it
    assert peak < budget, f"peak {peak / 2**20:.2f} MiB >= budget {budget / 2**20:.0f} MiB"
    print(f"causal={causal}: peak {peak / 2**20:.2f} MiB, budget {budget / 2**20:.0f} MiB")
    rows = np.r_[0:3, N - 32:N]
    if causal:
        A = elu_feature_map(Q[rows]) @ elu_feature_map(K).T * (np.arange(N)[None, :] <= rows[:, None])
    else:
        A = elu_feature_map(Q[rows]) @ elu_feature_map(K).T
    np.testing.assert_allclose(got[rows], (A @ V) / (A.sum(axis=-1, keepdims=True) + 1e-6), rtol=1e-9, atol=1e-12)
