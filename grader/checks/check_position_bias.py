"""Checks for exercise ``position_bias``: ALiBi slopes and biases, sliding windows, attention with a bias."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_mask, expect_pair, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_close
from grader.mistakes.position_bias import MODIFIES_INPUT


def check_slopes(impl, ref, counts):
    for n_heads in counts:
        expect_close(impl.position_bias.alibi_slopes(n_heads), ref.position_bias.alibi_slopes(n_heads),
                     call=f"alibi_slopes({n_heads})")


def biased_call(Q, K, V, bias=None, mask=None):
    extra = (() if bias is None else (arg("bias", bias),)) + (() if mask is None else (arg("mask", mask),))
    return call_text("biased_attention", arg("Q", Q), arg("K", K), arg("V", V), *extra)


def check_biased(impl, ref, Q, K, V, bias=None, mask=None):
    expected = ref.position_bias.biased_attention(Q, K, V, bias, mask)
    expect_pair(impl.position_bias.biased_attention(Q, K, V, bias, mask), expected,
                call=biased_call(Q, K, V, bias, mask))


@check(points=2, task=1)
def test_alibi_slopes_power_of_two(impl, ref):
    """alibi_slopes for 1, 2, 4, 8 and 16 heads: 8 heads give 1/2, 1/4, ..., 1/256"""
    check_slopes(impl, ref, (8, 1, 2, 4, 16))
    if not np.allclose(ref.position_bias.alibi_slopes(8), 0.5 ** np.arange(1, 9)):
        raise AssertionError("reference ALiBi slopes for 8 heads are not 1/2 .. 1/256")


@check(points=2, task=1)
def test_alibi_slopes_other_head_counts(impl, ref):
    """alibi_slopes for 3, 5, 6, 12 and 20 heads: a power of two's slopes, then every other slope of twice as many"""
    check_slopes(impl, ref, (12, 6, 3, 5, 20))


@check(points=3, task=2)
def test_alibi_bias_matches_reference(impl, ref):
    """alibi_bias: minus each head's slope times the query-key distance, queries on the last n_q positions"""
    for args in ((8, 5), (4, 3, 6), (6, 1, 7), (12, 4, 4), (3, 6)):
        expect_close(impl.position_bias.alibi_bias(*args), ref.position_bias.alibi_bias(*args),
                     call=call_text("alibi_bias", *map(str, args)))


@check(points=3, task=3)
def test_sliding_window_mask_matches_reference(impl, ref):
    """sliding_window_mask: causal windows (window keys, the query's own included), symmetric ones, window >= n"""
    for n, window, causal in ((8, 3, True), (6, 2, False), (7, 1, True), (5, 5, True), (4, 9, True), (6, 3, False),
                              (5, 1, False)):
        call = call_text("sliding_window_mask", str(n), str(window), f"causal={causal}")
        expect_mask(impl.position_bias.sliding_window_mask(n, window, causal),
                    ref.position_bias.sliding_window_mask(n, window, causal), call=call)


@check(points=1, task=3, rule="raises")
def test_sliding_window_rejects_empty_window(impl, ref):
    """sliding_window_mask raises ValueError for a window smaller than 1"""
    expect_mask(impl.position_bias.sliding_window_mask(4, 2), ref.position_bias.sliding_window_mask(4, 2),
                call="sliding_window_mask(4, 2)")                 # a valid call must work before errors score
    for window in (0, -1):
        expect_value_error(lambda window=window: impl.position_bias.sliding_window_mask(4, window),
                           call=f"sliding_window_mask(4, {window})", why="a window must hold at least one key")


@check(points=3, task=4)
def test_biased_attention_with_alibi(impl, ref, rng):
    """biased_attention adds the bias after the 1/sqrt(d_k) scaling: ALiBi per head, masks, float32"""
    causal = np.tril(np.ones((6, 6), dtype=bool))
    for batch, n_heads, n_q, n_k, d, dtype, mask in (((), 4, 6, 6, 8, np.float64, causal),
                                                     ((2,), 4, 6, 6, 4, np.float64, None),
                                                     ((), 3, 2, 5, 8, np.float32, None),
                                                     ((2,), 2, 6, 6, 8, np.float32, causal)):
        Q = normal(rng, (*batch, n_heads, n_q, d), dtype, 1.5)
        K = normal(rng, (*batch, n_heads, n_k, d), dtype, 1.5)
        V = normal(rng, (*batch, n_heads, n_k, d), dtype)
        check_biased(impl, ref, Q, K, V, 4 * ref.position_bias.alibi_bias(n_heads, n_q, n_k), mask)


@check(points=2, task=4)
def test_biased_attention_mask_beats_bias(impl, ref, rng):
    """a masked key gets weight 0 whatever its bias; a query with no allowed key gets zeros, not NaN"""
    Q, K, V = normal(rng, (4, 4)), normal(rng, (5, 4)), normal(rng, (5, 3))
    bias = normal(rng, (4, 5))
    bias[:, 4] = 30.0                                           # a key the mask forbids, with a huge bias
    mask = np.array([[True, True, False, False, False], [False] * 5, [True] * 4 + [False], [True] * 4 + [False]])
    check_biased(impl, ref, Q, K, V, bias, mask)
    check_biased(impl, ref, Q, K, V, mask=mask)
    bias[:, 4] = 2e9                                            # larger than any finite fill a mask could use
    check_biased(impl, ref, Q, K, V, bias, mask)


@check(points=1, task=4, rule="raises")
def test_position_bias_rejects_bad_arguments(impl, ref, rng):
    """alibi_slopes raises ValueError for fewer than 1 head; biased_attention for a bias that does not broadcast"""
    check_slopes(impl, ref, (2,))                               # valid calls must work before errors score
    Q, K, V = normal(rng, (3, 4)), normal(rng, (5, 4)), normal(rng, (5, 2))
    check_biased(impl, ref, Q, K, V, normal(rng, (3, 5)))
    for n_heads in (0, -2):
        expect_value_error(lambda n_heads=n_heads: impl.position_bias.alibi_slopes(n_heads),
                           call=f"alibi_slopes({n_heads})", why="there must be at least one head")
    for shape in ((5, 3), (2, 3, 4)):
        bias = normal(rng, shape)
        expect_value_error(lambda bias=bias: impl.position_bias.biased_attention(Q, K, V, bias),
                           call=biased_call(Q, K, V, bias), why="the bias must broadcast to the (3, 5) scores")


@check(points=1, task=4, rule="dtype")
def test_position_bias_dtypes(impl, ref, rng):
    """slopes and biases are float64, sliding windows boolean, biased_attention keeps float32"""
    expect_dtypes(impl.position_bias.alibi_slopes(4), ref.position_bias.alibi_slopes(4), call="alibi_slopes(4)")
    expect_dtypes(impl.position_bias.alibi_bias(4, 3, 5), ref.position_bias.alibi_bias(4, 3, 5),
                  call="alibi_bias(4, 3, 5)")
    expect_dtypes(impl.position_bias.sliding_window_mask(5, 2), ref.position_bias.sliding_window_mask(5, 2),
                  call="sliding_window_mask(5, 2)")
    Q, K, V = (normal(rng, (2, 4, 3), np.float32) for _ in range(3))
    bias = ref.position_bias.alibi_bias(2, 4, 4).astype(np.float32)
    expected = ref.position_bias.biased_attention(Q, K, V, bias)
    expect_dtypes(impl.position_bias.biased_attention(Q, K, V, bias), expected, call=biased_call(Q, K, V, bias))


@check(points=1, task=4, rule="untouched")
def test_biased_attention_leaves_inputs_untouched(impl, ref, rng):
    """biased_attention leaves the caller's Q, K, V, bias and mask as they were"""
    Q, K, V = normal(rng, (2, 5, 3)), normal(rng, (2, 5, 3)), normal(rng, (2, 5, 2))
    bias, mask = ref.position_bias.alibi_bias(2, 5), ref.masking.causal_mask(5)
    expect_untouched(impl, "position_bias", "biased_attention", (Q, K, V), {"bias": bias, "mask": mask},
                     names=("Q", "K", "V"), mistake=MODIFIES_INPUT,
                     expected=ref.position_bias.biased_attention(Q, K, V, bias=bias, mask=mask))
