"""Checks for exercise ``tiled_attention``: flash-style attention with an online softmax."""
import numpy as np

from grader import document_values as doc
from grader.checks.common import expect_dtypes, expect_kernel_memory, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.secret import unpredictable
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_array, expect_close
from grader.mistakes import tiled_attention as mistakes

# d = 16: the check looks for an n x n array (32 MiB at n = 2048 in float64, whatever d); a small d keeps it fast.
# float32 inputs: half the bytes to stream through, so the student's run takes about 2/3 of the time (29 vs 44
# ms for the reference); the budget stays 1/8 of an n x n float64 matrix, so an n x n float32 array (16 MiB) or
# even a boolean mask (4 MiB) still reaches it. Blocks of 32 keys: an (n, block) temporary is 256 KiB in float32
# and 512 KiB in float64 (code that computes in float64 whatever its input), so an implementation holding several
# (FlashAttention-1's normalised form: 1.4 MiB of extra memory in float32, 2.9 MiB in float64) stays below the
# budget. (At blocks of 64 that form needs 4.9 MiB in float64; at 16 the check costs 1.2x the time, and 3.8x for
# code that tiles the queries too.)
MEMORY_N, MEMORY_D, MEMORY_BLOCK, MEMORY_DTYPE = 2048, 16, 32, np.float32


INTEGER_QKV = (np.array([[1, 0], [0, 2], [1, 1]]), np.array([[1, 2], [0, 1], [2, 0], [1, 1]]),
               np.array([[3, 1], [0, 2], [1, 1], [2, 0]]))


def tiled_call(Q, K, V, block_size=None, causal=None):
    extra = [f"{name}={value}" for name, value in (("block_size", block_size), ("causal", causal)) if value is not None]
    return call_text("tiled_attention", arg("Q", Q), arg("K", K), arg("V", V), *extra)


def check_tiled(impl, ref, Q, K, V, block_size, causal):
    expected = ref.tiled_attention.tiled_attention(Q, K, V, block_size=block_size, causal=causal)
    got = impl.tiled_attention.tiled_attention(Q, K, V, block_size=block_size, causal=causal)
    expect_close(got, expected, call=tiled_call(Q, K, V, block_size, causal))


@check(points=4, task=1)
def test_tiled_matches_full_attention(impl, ref, rng):
    """tiled_attention equals full attention for any block size (n not a multiple of it, 1, larger than n, default)"""
    for n_q, n_k, d_k, d_v, block, dtype in ((10, 10, 4, 4, 4, np.float64), (5, 13, 3, 2, 5, np.float64),
                                             (6, 7, 4, 3, 1, np.float64), (4, 9, 4, 4, 64, np.float64),
                                             (8, 11, 4, 3, 3, np.float32)):
        Q, K = normal(rng, (n_q, d_k), dtype, 2.0), normal(rng, (n_k, d_k), dtype, 2.0)
        V = normal(rng, (n_k, d_v), dtype)
        check_tiled(impl, ref, Q, K, V, block, False)
    Q, K, V = INTEGER_QKV
    expected = ref.tiled_attention.tiled_attention(Q, K, V)
    expect_close(impl.tiled_attention.tiled_attention(Q, K, V), expected, call=tiled_call(Q, K, V))


@check(points=3, task=1)
def test_tiled_causal(impl, ref, rng):
    """tiled_attention with causal=True equals causally masked attention (query i sees keys j <= i)"""
    for n_q, n_k, d, block, dtype in ((9, 9, 4, 4, np.float64), (9, 9, 4, 1, np.float64), (6, 6, 3, 16, np.float64),
                                      (5, 8, 4, 3, np.float64), (7, 7, 4, 2, np.float32)):
        Q, K, V = normal(rng, (n_q, d), dtype, 2.0), normal(rng, (n_k, d), dtype, 2.0), normal(rng, (n_k, d), dtype)
        check_tiled(impl, ref, Q, K, V, block, True)


@check(points=2, task=1)
def test_tiled_document_values(impl, ref):
    """tiled_attention reproduces the worked "India is great" output with blocks of 1, 2 and 64 keys"""
    inputs, printed = doc.india_inputs(), doc.india_expected()
    Q, K, V = (inputs["X"] @ inputs[name] for name in ("W_Q", "W_K", "W_V"))
    expected = printed["output"]
    for block in (1, 2, 64):
        origin = ref.tiled_attention.tiled_attention(Q, K, V, block_size=block)
        expect_close(impl.tiled_attention.tiled_attention(Q, K, V, block_size=block), expected.value,
                     call=tiled_call(Q, K, V, block), atol=expected.atol, rtol=0, origin=origin)


@check(points=1, task=1, rule="dtype")
def test_tiled_attention_dtypes(impl, ref, rng):
    """tiled_attention keeps float32, and integer inputs give float64"""
    cases = [tuple(normal(rng, (n, 4), np.float32) for n in (5, 7, 7)), INTEGER_QKV]
    for Q, K, V in cases:
        expected = ref.tiled_attention.tiled_attention(Q, K, V, block_size=3)
        expect_dtypes(impl.tiled_attention.tiled_attention(Q, K, V, block_size=3), expected,
                      call=tiled_call(Q, K, V, 3))


@check(points=6, task=2, heavy=True, rule="memory")
def test_tiled_memory(impl, ref, rng):
    """tiled_attention at n = 2048 in float32 never holds an n x n array (peak extra memory < 1/8 of n*n float64)"""
    n, d, block = MEMORY_N, MEMORY_D, MEMORY_BLOCK
    rng = unpredictable(rng)  # when grading: inputs a submission cannot precompute an answer for
    Q, K, V = (normal(rng, (n, d), MEMORY_DTYPE) for _ in range(3))
    budget = n * n * 8 // 8   # 4 MiB; one n x n float64 matrix is 32 MiB (at n = 4096: 16M floats, 128 MiB)
    call = tiled_call(Q, K, V, block, True)
    # the whole result is compared (code that computes only some rows cannot pass), with the reference's tiled run
    # (memoised: the same inputs for a whole class); a copy, so diagnosis does not try the mistakes at this size
    # (the earlier checks name the mistakes of wrong values)
    expected = np.array(ref.tiled_attention.tiled_attention(Q, K, V, block_size=block, causal=True))
    got, peak = impl.tiled_attention.tiled_attention.measure(Q, K, V, block_size=block, causal=True)
    got = expect_array(got, call=call, shape=(n, d))
    expect_close(got, expected, call=call)
    # the same budget, enforced by the operating system's measure: beyond the arguments, the result and one
    # running (n, d_v) accumulator (both counted as float64, in case it computes in float64)
    expect_kernel_memory(impl, call=call, budget=budget, allowance=3 * n * d * Q.itemsize + 2 * n * d * 8,
                         full=n * n * 8, mistake=mistakes.FULL_MATRIX, diagnose_from=n * n)
    # tracemalloc's figure, computed in the student's process: it can only cost the point, never award it.
    # Not counted as extra: the (n, d_v) result and one running (n, d_v) accumulator, which every
    # implementation needs whatever its block size (counted as float64, in case it computes in float64).
    extra = peak - 2 * n * d * 8
    if extra >= budget:
        diagnosis = mistakes.FULL_MATRIX if extra >= n * n else None
        raise CheckFailed(f"{call} used {extra / 2**20:.1f} MiB of extra memory at its peak (beyond its result and one "
                          f"running output); expected less than {budget / 2**20:.0f} MiB (1/8 of one {n} x {n} float64 "
                          f"matrix, {n * n * 8 / 2**20:.0f} MiB)", diagnosis)


@check(points=1, task=1, rule="untouched")
def test_tiled_leaves_inputs_untouched(impl, ref, rng):
    """tiled_attention leaves the caller's Q, K and V as they were"""
    Q, K, V = normal(rng, (6, 4)), normal(rng, (6, 4)), normal(rng, (6, 3))
    for causal in (False, True):
        expect_untouched(impl, "tiled_attention", "tiled_attention", (Q, K, V), {"block_size": 4, "causal": causal},
                         names=("Q", "K", "V"), mistake=mistakes.MODIFIES_INPUT,
                         expected=ref.tiled_attention.tiled_attention(Q, K, V, block_size=4, causal=causal))


@check(points=1, task=1, rule="raises")
def test_tiled_rejects_empty_blocks(impl, ref, rng):
    """tiled_attention raises ValueError for a block_size smaller than 1"""
    Q, K, V = normal(rng, (3, 4)), normal(rng, (5, 4)), normal(rng, (5, 2))
    check_tiled(impl, ref, Q, K, V, 2, False)                   # a valid call must work before errors score
    for block_size in (0, -3):
        expect_value_error(lambda block_size=block_size: impl.tiled_attention.tiled_attention(
            Q, K, V, block_size=block_size), call=tiled_call(Q, K, V, block_size),
            why="a block holds at least one key")
