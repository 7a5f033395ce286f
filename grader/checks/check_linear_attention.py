"""Checks for exercise ``linear_attention``: the elu + 1 feature map, linear attention, its causal form and
its memory (never an n x n array)."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_kernel_memory, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.secret import unpredictable
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_array, expect_close
from grader.mistakes.linear_attention import FULL_MATRIX, MODIFIES_INPUT

MEMORY_N, MEMORY_D = 4096, 16


def linear_call(Q, K, V, causal=None, eps=None):
    return call_text("linear_attention", arg("Q", Q), arg("K", K), arg("V", V),
                     *(() if causal is None else (f"causal={causal}",)), *(() if eps is None else (f"eps={eps}",)))


def check_linear(impl, ref, Q, K, V, causal, eps=None):
    options = {"causal": causal, **({} if eps is None else {"eps": eps})}
    expected = ref.linear_attention.linear_attention(Q, K, V, **options)
    expect_close(impl.linear_attention.linear_attention(Q, K, V, **options), expected,
                 call=linear_call(Q, K, V, causal, eps))


@check(points=2, task=1)
def test_elu_feature_map(impl, ref, rng):
    """elu_feature_map is x + 1 for x > 0 and exp(x) elsewhere, without overflow for large x"""
    for x in (np.array([-30.0, -2.0, -0.5, 0.0, 0.5, 3.0, 800.0]), normal(rng, (3, 4, 5), np.float32, 3.0),
              normal(rng, (2, 6), np.float64, 2.0), np.array([[-2, 0, 3]])):
        expect_close(impl.linear_attention.elu_feature_map(x), ref.linear_attention.elu_feature_map(x),
                     call=call_text("elu_feature_map", arg("x", x)))


@check(points=3, task=2)
def test_linear_matches_reference(impl, ref, rng):
    """linear_attention matches the reference: phi(q_i)^T S / (phi(q_i)^T z + eps) (n_q != n_k, batches, float32)"""
    for q, k, v, dtype in (((5, 4), (5, 4), (5, 3), np.float64), ((3, 6), (7, 6), (7, 2), np.float64),
                           ((2, 3, 4, 8), (2, 3, 6, 8), (2, 3, 6, 5), np.float32),
                           ((2, 4, 4), (2, 9, 4), (2, 9, 4), np.float32)):
        Q, K, V = normal(rng, q, dtype, 1.5), normal(rng, k, dtype, 1.5), normal(rng, v, dtype)
        check_linear(impl, ref, Q, K, V, False)
    Q, K, V = normal(rng, (4, 3)), normal(rng, (6, 3)) * 0.01, normal(rng, (6, 2))  # small sums: eps matters
    for eps in (0.5, 1e-12):
        check_linear(impl, ref, Q, K, V, False, eps)


@check(points=3, task=2)
def test_linear_causal(impl, ref, rng):
    """with causal=True query i sums only over keys j <= i (its own included), numerator and normaliser alike"""
    for shape, d_v, dtype in (((6, 4), 3, np.float64), ((2, 5, 3), 4, np.float64), ((2, 2, 7, 4), 4, np.float32),
                              ((1, 4), 2, np.float64)):
        Q, K = normal(rng, shape, dtype, 1.5), normal(rng, shape, dtype, 1.5)
        V = normal(rng, (*shape[:-1], d_v), dtype)
        check_linear(impl, ref, Q, K, V, True)


@check(points=1, task=2, rule="raises")
def test_linear_causal_needs_equal_lengths(impl, ref, rng):
    """linear_attention with causal=True raises ValueError when n_q != n_k"""
    Q, K, V = normal(rng, (4, 3)), normal(rng, (4, 3)), normal(rng, (4, 2))
    check_linear(impl, ref, Q, K, V, True)                      # a valid call must work before errors score
    K, V = normal(rng, (6, 3)), normal(rng, (6, 2))
    expect_value_error(lambda: impl.linear_attention.linear_attention(Q, K, V, causal=True),
                       call=linear_call(Q, K, V, True), why="a causal query i needs key i: n_q must equal n_k")


@check(points=1, task=2, rule="dtype")
def test_linear_attention_dtypes(impl, ref, rng):
    """elu_feature_map and linear_attention keep float32; integers give float64"""
    for x in (normal(rng, (3, 4), np.float32), np.array([[-2, 0, 3]])):
        expect_dtypes(impl.linear_attention.elu_feature_map(x), ref.linear_attention.elu_feature_map(x),
                      call=call_text("elu_feature_map", arg("x", x)))
    for causal in (False, True):
        Q, K, V = (normal(rng, (4, 3), np.float32) for _ in range(3))
        expected = ref.linear_attention.linear_attention(Q, K, V, causal=causal)
        expect_dtypes(impl.linear_attention.linear_attention(Q, K, V, causal=causal), expected,
                      call=linear_call(Q, K, V, causal))


@check(points=5, task=3, heavy=True, rule="memory")
def test_linear_memory(impl, ref, rng):
    """linear_attention at n = 4096, d = 16 uses under 1/8 of an n x n float64 matrix (1/4 with causal=True)"""
    n, d = MEMORY_N, MEMORY_D
    rng = unpredictable(rng)  # when grading: inputs a submission cannot precompute an answer for
    Q, K, V = normal(rng, (n, d)), normal(rng, (n, d)), normal(rng, (n, d))
    full = n * n * 8
    for causal, budget in ((False, full // 8), (True, full // 4)):
        call = linear_call(Q, K, V, causal)
        got, peak = impl.linear_attention.linear_attention.measure(Q, K, V, causal=causal)
        got = expect_array(got, call=call, shape=(n, d))
        # 64 rows first, diagnosed as the other checks' values are: the last ones, which see every key, or with
        # causal=True the first ones, which see only the first 64 tokens
        rows, keys = (slice(0, 64), slice(0, 64)) if causal else (slice(n - 64, n), slice(0, n))
        expect_close(got[rows], ref.linear_attention.linear_attention(Q[rows], K[keys], V[keys], causal=causal),
                     call=call, what=f"rows {rows.start}..{rows.stop - 1}")
        # then the whole result (code that computes only some rows cannot pass; the reference is linear in n too),
        # a copy, so diagnosis does not try the mistakes at this size
        expect_close(got, np.array(ref.linear_attention.linear_attention(Q, K, V, causal=causal)), call=call)
        extra = peak - n * d * 8  # the (n, d) result is not extra
        if extra >= budget:
            raise CheckFailed(f"{call} used {extra / 2**20:.1f} MiB of memory; expected less than "
                              f"{budget / 2**20:.0f} MiB (one {n} x {n} float64 matrix is {full / 2**20:.0f} MiB)",
                              FULL_MATRIX if extra >= full // 2 else None)
        expect_kernel_memory(impl, call=call, budget=budget, allowance=4 * n * d * 8, full=full,
                             mistake=FULL_MATRIX)  # allowance: Q, K, V and the (n, d) result


@check(points=1, task=2, rule="untouched")
def test_linear_leaves_inputs_untouched(impl, ref, rng):
    """elu_feature_map and linear_attention leave the caller's arrays as they were"""
    x = normal(rng, (4, 3), scale=2.0)
    expect_untouched(impl, "linear_attention", "elu_feature_map", (x,), names=("x",),
                     expected=ref.linear_attention.elu_feature_map(x), mistake=MODIFIES_INPUT)
    Q, K, V = normal(rng, (5, 3)), normal(rng, (5, 3)), normal(rng, (5, 2))
    for causal in (False, True):
        expect_untouched(impl, "linear_attention", "linear_attention", (Q, K, V), {"causal": causal},
                         names=("Q", "K", "V"), mistake=MODIFIES_INPUT,
                         expected=ref.linear_attention.linear_attention(Q, K, V, causal=causal))
