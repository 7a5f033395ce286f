"""Checks for exercise ``gqa``: grouped-query attention and the size of the key/value cache it shrinks."""
import numbers

import numpy as np

from grader.checks.common import expect_dtypes, expect_pair, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_close
from grader.mistakes.gqa import MODIFIES_INPUT, cache_mistake

GiB, MiB = 2**30, 2**20


def gqa_call(X, W, n_heads, n_kv_heads, mask=None):
    names = ("W_Q", "W_K", "W_V", "W_O")
    return call_text("grouped_query_attention", arg("X", X), *(arg(n, w) for n, w in zip(names, W)),
                     f"n_heads={n_heads}", f"n_kv_heads={n_kv_heads}", *(() if mask is None else (arg("mask", mask),)))


def gqa_inputs(rng, shape, n_heads, n_kv_heads, dtype=np.float64):
    """X and (W_Q, W_K, W_V, W_O) for ``n_heads`` query heads and ``n_kv_heads`` key/value heads."""
    d_model = shape[-1]
    d_kv = n_kv_heads * (d_model // n_heads)
    scale = d_model ** -0.5
    W = [normal(rng, (d_model, d), dtype, scale) for d in (d_model, d_kv, d_kv, d_model)]
    return normal(rng, shape, dtype), W


def check_gqa(impl, ref, X, W, n_heads, n_kv_heads, mask=None):
    args = (X, *W, n_heads, n_kv_heads) + (() if mask is None else (mask,))
    expected = ref.gqa.grouped_query_attention(*args)
    expect_pair(impl.gqa.grouped_query_attention(*args), expected, call=gqa_call(X, W, n_heads, n_kv_heads, mask))
    return expected


@check(points=3, task=1)
def test_repeat_kv_matches_reference(impl, ref, rng):
    """repeat_kv puts n_rep copies of each key/value head side by side: output head j is input head j // n_rep"""
    for shape, n_rep, dtype in (((2, 5, 3), 2, np.float64), ((2, 3, 4, 2), 3, np.float32),
                                ((2, 2, 3, 4, 2), 2, np.float64), ((3, 4, 5), 1, np.float64)):
        x = normal(rng, shape, dtype)
        call = call_text("repeat_kv", arg("x", x), f"n_rep={n_rep}")
        expect_close(impl.gqa.repeat_kv(x, n_rep), ref.gqa.repeat_kv(x, n_rep), call=call)
    x = np.arange(24).reshape(1, 3, 2, 4)                       # integers: only data moves, the dtype stays
    expect_close(impl.gqa.repeat_kv(x, 2), ref.gqa.repeat_kv(x, 2), call=call_text("repeat_kv", arg("x", x), "n_rep=2"))


@check(points=3, task=2)
def test_gqa_matches_reference(impl, ref, rng):
    """grouped_query_attention matches the reference (groups of 2, 3 and 4 query heads, batches, masks, float32)"""
    causal = np.tril(np.ones((5, 5), dtype=bool))
    for shape, n_heads, n_kv_heads, dtype, mask in (((5, 8), 4, 2, np.float64, None),
                                                    ((2, 5, 12), 6, 2, np.float64, causal),
                                                    ((2, 5, 16), 8, 2, np.float32, None),
                                                    ((5, 12), 6, 3, np.float32, causal)):
        X, W = gqa_inputs(rng, shape, n_heads, n_kv_heads, dtype)
        check_gqa(impl, ref, X, W, n_heads, n_kv_heads, mask)


@check(points=2, task=2)
def test_gqa_with_as_many_kv_heads_as_heads(impl, ref, rng):
    """with n_kv_heads == n_heads, grouped_query_attention is ordinary multi-head self-attention"""
    for shape, n_heads, mask in (((6, 8), 2, None), ((2, 5, 12), 3, np.tril(np.ones((5, 5), dtype=bool)))):
        X, W = gqa_inputs(rng, shape, n_heads, n_heads)
        expected = check_gqa(impl, ref, X, W, n_heads, n_heads, mask)
        multihead = ref.multihead.multi_head_self_attention(X, *W, n_heads, mask)
        if not all(np.allclose(a, b) for a, b in zip(expected, multihead)):
            raise AssertionError("reference grouped-query attention differs from multi-head attention")


@check(points=2, task=2)
def test_gqa_multi_query(impl, ref, rng):
    """with n_kv_heads == 1 (multi-query attention) every query head attends with the same keys and values"""
    padding = np.arange(6)[None, None, :] < np.array([6, 3])[:, None, None]     # (batch, 1, n)
    for shape, n_heads, mask in (((6, 8), 4, None), ((2, 6, 12), 3, padding)):
        X, W = gqa_inputs(rng, shape, n_heads, 1)
        check_gqa(impl, ref, X, W, n_heads, 1, mask)


@check(points=1, task=2, rule="raises")
def test_gqa_rejects_indivisible(impl, ref, rng):
    """grouped_query_attention raises ValueError when d_model % n_heads or n_heads % n_kv_heads is not 0"""
    X, W = gqa_inputs(rng, (3, 8), 4, 2)
    check_gqa(impl, ref, X, W, 4, 2)                          # a valid call must work before errors score
    for d_model, n_heads, n_kv_heads, why in ((6, 4, 1, "d_model=6 is not divisible by n_heads=4"),
                                             (12, 4, 3, "n_heads=4 is not divisible by n_kv_heads=3")):
        X = normal(rng, (3, d_model))
        d_kv = n_kv_heads * max(d_model // n_heads, 1)
        W = [normal(rng, (d_model, d)) for d in (d_model, d_kv, d_kv, d_model)]
        expect_value_error(lambda X=X, W=W, h=n_heads, g=n_kv_heads: impl.gqa.grouped_query_attention(X, *W, h, g),
                           call=gqa_call(X, W, n_heads, n_kv_heads), why=why)


@check(points=1, task=2, rule="dtype")
def test_gqa_dtypes(impl, ref, rng):
    """repeat_kv keeps the dtype (integers too); grouped_query_attention keeps float32, integers give float64"""
    for x in (normal(rng, (2, 3, 4), np.float32), np.arange(24).reshape(2, 3, 4)):
        expect_dtypes(impl.gqa.repeat_kv(x, 2), ref.gqa.repeat_kv(x, 2),
                      call=call_text("repeat_kv", arg("x", x), "n_rep=2"))
    for dtype in (np.float32, int):
        X, W = gqa_inputs(rng, (3, 8), 4, 2)
        X, W = (X * 3).astype(dtype), [(w * 3).astype(dtype) for w in W]
        expected = ref.gqa.grouped_query_attention(X, *W, 4, 2)
        expect_dtypes(impl.gqa.grouped_query_attention(X, *W, 4, 2), expected, call=gqa_call(X, W, 4, 2))


@check(points=3, task=3)
def test_kv_cache_bytes(impl, ref):
    """kv_cache_bytes: 32 layers, 32 heads of 128, 4096 float16 tokens: 2 GiB, 512 MiB, 64 MiB with 32, 8, 1 kv heads"""
    # the first call's factors 2 (keys and values), 3 (layers) and 4 (bytes) differ, so a result too small by
    # one of them shows which one was left out
    cases = [dict(n_layers=3, n_kv_heads=2, d_head=64, seq_len=100, batch=5, bytes_per_value=4)]
    cases += [dict(n_layers=32, n_kv_heads=n_kv_heads, d_head=128, seq_len=4096) for n_kv_heads in (32, 8, 1)]
    cases += [dict(n_layers=80, n_kv_heads=8, d_head=128, seq_len=131072, batch=64, bytes_per_value=2)]
    for sizes in cases:
        call = call_text("kv_cache_bytes", *(f"{k}={v}" for k, v in sizes.items()))
        expected = ref.gqa.kv_cache_bytes(**sizes)
        got = impl.gqa.kv_cache_bytes(**sizes)
        if not isinstance(got, numbers.Integral):
            raise CheckFailed(f"{call} returned {got!r} ({type(got).__name__}); expected the int {expected}")
        if got != expected:
            mistake = cache_mistake(got, expected, sizes["n_layers"], sizes.get("bytes_per_value", 2))
            raise CheckFailed(f"{call} returned {got} ({got / MiB:g} MiB); expected {expected} "
                              f"({expected / MiB:g} MiB)", mistake)
    if [ref.gqa.kv_cache_bytes(**sizes) for sizes in cases[1:4]] != [2 * GiB, 512 * MiB, 64 * MiB]:
        raise AssertionError("reference kv_cache_bytes does not give 2 GiB, 512 MiB and 64 MiB")


@check(points=1, task=2, rule="untouched")
def test_gqa_leaves_inputs_untouched(impl, ref, rng):
    """repeat_kv and grouped_query_attention leave the caller's arrays as they were"""
    x = normal(rng, (2, 5, 3))
    expect_untouched(impl, "gqa", "repeat_kv", (x, 2), names=("x", "n_rep"), expected=ref.gqa.repeat_kv(x, 2),
                     mistake=MODIFIES_INPUT)
    X = normal(rng, (5, 8))
    W_Q, W_K, W_V, W_O = (normal(rng, shape, scale=8 ** -0.5) for shape in ((8, 8), (8, 4), (8, 4), (8, 8)))
    mask = ref.masking.causal_mask(5)
    expect_untouched(impl, "gqa", "grouped_query_attention", (X, W_Q, W_K, W_V, W_O, 4, 2), {"mask": mask},
                     names=("X", "W_Q", "W_K", "W_V", "W_O", "n_heads", "n_kv_heads"), mistake=MODIFIES_INPUT,
                     expected=ref.gqa.grouped_query_attention(X, W_Q, W_K, W_V, W_O, 4, 2, mask=mask))


@check(points=1, task=3, rule="raises")
def test_gqa_rejects_bad_arguments(impl, ref, rng):
    """repeat_kv raises ValueError for n_rep < 1 or fewer than 3 axes; grouped_query_attention for W_K or W_V
    without n_kv_heads * d_head columns; kv_cache_bytes for a negative size"""
    x = normal(rng, (2, 3, 4))
    expect_close(impl.gqa.repeat_kv(x, 2), ref.gqa.repeat_kv(x, 2), call=call_text("repeat_kv", arg("x", x), "n_rep=2"))
    X, W = gqa_inputs(rng, (3, 8), 4, 2)
    check_gqa(impl, ref, X, W, 4, 2)                            # valid calls must work before errors score
    expect_close(np.asarray(impl.gqa.kv_cache_bytes(2, 2, 4, 8)), np.asarray(ref.gqa.kv_cache_bytes(2, 2, 4, 8)),
                 call="kv_cache_bytes(2, 2, 4, 8)")
    for value, n_rep, why in ((x, 0, "n_rep must be at least 1"), (x, -1, "n_rep must be at least 1"),
                              (x[0], 2, "x needs (..., n_kv_heads, n, d): at least 3 axes")):
        expect_value_error(lambda value=value, n_rep=n_rep: impl.gqa.repeat_kv(value, n_rep),
                           call=call_text("repeat_kv", arg("x", value), f"n_rep={n_rep}"), why=why)
    for index, name in ((1, "W_K"), (2, "W_V")):
        wrong = list(W)
        wrong[index] = normal(rng, (8, 6))
        expect_value_error(lambda wrong=wrong: impl.gqa.grouped_query_attention(X, *wrong, 4, 2),
                           call=gqa_call(X, wrong, 4, 2), why=f"{name} needs n_kv_heads * d_head = 4 columns")
    for sizes in ((-1, 2, 4, 8), (2, 2, 4, -8)):
        expect_value_error(lambda sizes=sizes: impl.gqa.kv_cache_bytes(*sizes),
                           call=f"kv_cache_bytes{sizes}", why="a size cannot be negative")
