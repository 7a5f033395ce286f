"""Checks for exercise ``multihead``: split into heads, attend per head, merge, project."""
import numpy as np

from grader import document_values as doc
from grader.checks.common import expect_dtypes, expect_pair, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_array, expect_close, expect_tuple
from grader.mistakes.multihead import MODIFIES_INPUT


def mhsa_call(X, W, n_heads, mask=None):
    return call_text("multi_head_self_attention", arg("X", X),
                     *(arg(n, w) for n, w in zip(("W_Q", "W_K", "W_V", "W_O"), W)),
                     f"n_heads={n_heads}", *(() if mask is None else (arg("mask", mask),)))


@check(points=3, task=1)
def test_split_heads_matches_reference(impl, ref, rng):
    """split_heads gives head h the columns [h*d_head:(h+1)*d_head], heads before tokens"""
    for shape, n_heads, dtype in (((3, 4), 2, np.float64), ((5, 12), 3, np.float64), ((2, 4, 12), 4, np.float32),
                                  ((2, 3, 6, 8), 2, np.float64), ((4, 6), 1, np.float64)):
        X = normal(rng, shape, dtype)
        call = call_text("split_heads", arg("X", X), f"n_heads={n_heads}")
        expected = ref.multihead.split_heads(X, n_heads)
        expect_close(impl.multihead.split_heads(X, n_heads), expected, call=call)


@check(points=1, task=1)
def test_split_heads_document_shapes(impl, ref, rng):
    """split_heads gives the textbook per-head shapes (d_model 512 = 8 heads x 64, and 4 = 2 heads x 2)"""
    for entry in doc.shapes():
        if entry["call"] != "split_heads":
            continue
        X = normal(rng, tuple(entry["input"]))
        n_heads = entry["sizes"]["n_heads"]
        call = call_text("split_heads", arg("X", X), f"n_heads={n_heads}")
        expected = ref.multihead.split_heads(X, n_heads)
        got = expect_array(impl.multihead.split_heads(X, n_heads), call=call, shape=tuple(entry["output"]),
                           origin=expected)
        expect_close(got, expected, call=call)                  # the right shape holding the right values


@check(points=1, task=1, rule="raises")
def test_split_heads_rejects_indivisible(impl, ref, rng):
    """split_heads raises ValueError when d_model is not divisible by n_heads"""
    X = normal(rng, (3, 6))
    expect_close(impl.multihead.split_heads(X, 3), ref.multihead.split_heads(X, 3),
                 call=call_text("split_heads", arg("X", X), "n_heads=3"))  # a valid call must work before errors score
    for shape, n_heads in (((3, 10), 3), ((2, 6), 4)):
        X = np.zeros(shape)
        expect_value_error(lambda X=X, n_heads=n_heads: impl.multihead.split_heads(X, n_heads),
                           call=call_text("split_heads", arg("X", X), f"n_heads={n_heads}"),
                           why=f"d_model={shape[-1]} is not divisible by n_heads={n_heads}")


@check(points=3, task=2)
def test_merge_heads_matches_reference(impl, ref, rng):
    """merge_heads undoes split_heads: heads concatenated along the last axis, tokens first"""
    for shape, dtype in (((2, 5, 3), np.float64), ((2, 3, 4, 5), np.float32), ((4, 3, 2), np.float64)):
        X = normal(rng, shape, dtype)
        expected = ref.multihead.merge_heads(X)
        expect_close(impl.multihead.merge_heads(X), expected, call=call_text("merge_heads", arg("X", X)))
    X = normal(rng, (2, 5, 12))
    heads = ref.multihead.split_heads(X, 3)
    origin = ref.multihead.merge_heads(heads)
    expect_close(impl.multihead.merge_heads(heads), X, call=call_text("merge_heads", arg("split_heads(X, 3)", heads)),
                 origin=origin)


@check(points=3, task=3)
def test_mhsa_matches_reference(impl, ref, rng):
    """multi_head_self_attention matches the reference (batched, masked, float32, integer input)"""
    causal = np.tril(np.ones((6, 6), dtype=bool))
    per_example = (rng.random((3, 5, 5)) < 0.6) | np.eye(5, dtype=bool)   # (B, n, n), B = 3 != n_heads = 2
    keys = np.array([True, True, True, False, True])                       # (n,): a mask over the keys only
    for shape, n_heads, dtype, mask in (((5, 8), 2, np.float64, None), ((2, 4, 12), 3, np.float32, None),
                                        ((6, 8), 4, np.float64, causal), ((2, 6, 6), 2, np.float32, causal),
                                        ((3, 5, 8), 2, np.float64, per_example), ((5, 8), 2, np.float64, keys)):
        X = normal(rng, shape, dtype)
        d = shape[-1]
        W = [normal(rng, (d, d), dtype, 1.0) for _ in range(4)]
        expected = ref.multihead.multi_head_self_attention(X, *W, n_heads, mask)
        args = (X, *W, n_heads) if mask is None else (X, *W, n_heads, mask)
        expect_pair(impl.multihead.multi_head_self_attention(*args), expected, call=mhsa_call(X, W, n_heads, mask))
    X = np.array([[1, 0, 2, 1], [0, 1, 1, 3], [2, 2, 0, 1]])
    W = [np.eye(4, dtype=int), np.arange(16).reshape(4, 4) % 3, np.ones((4, 4), dtype=int), np.eye(4, dtype=int)[::-1]]
    expected = ref.multihead.multi_head_self_attention(X, *W, 2)  # integer input: float64 results
    expect_pair(impl.multihead.multi_head_self_attention(X, *W, 2), expected, call=mhsa_call(X, W, 2))


@check(points=3, task=3)
def test_mhsa_two_head_document(impl, ref):
    """multi_head_self_attention reproduces the two-head "India is great" output (per-head matrices side by side)"""
    X = doc.india_inputs()["X"]
    weights = doc.two_heads_weights()
    W = [weights[name] for name in ("W_Q", "W_K", "W_V", "W_O")]
    printed = doc.two_heads_expected()
    origin = ref.multihead.multi_head_self_attention(X, *W, 2)
    got = impl.multihead.multi_head_self_attention(X, *W, 2)
    got = expect_tuple(got, call=mhsa_call(X, W, 2), names=("output", "weights"))
    expect_array(got[1], call=mhsa_call(X, W, 2) + " weights", shape=(2, 3, 3), origin=origin[1])
    expect_close(got[0], printed.value, call=mhsa_call(X, W, 2), what="output", atol=printed.atol, rtol=0,
                 origin=origin[0])


@check(points=2, task=3)
def test_mhsa_document_shapes(impl, ref, rng):
    """multi_head_self_attention has the textbook shapes: 8 heads on (10, 64) give (10, 64) and weights (8, 10, 10)"""
    for entry in doc.shapes():
        if entry["call"] != "multi_head_self_attention":
            continue
        sizes = entry["sizes"]
        d = sizes["d_model"]
        X = normal(rng, tuple(entry["input"]))
        W = [normal(rng, (d, d)) / np.sqrt(d) for _ in range(4)]
        call = mhsa_call(X, W, sizes["n_heads"])
        expected = ref.multihead.multi_head_self_attention(X, *W, sizes["n_heads"])
        got = expect_tuple(impl.multihead.multi_head_self_attention(X, *W, sizes["n_heads"]), call=call,
                           names=("output", "weights"))
        expect_array(got[0], call=call + " output", shape=tuple(entry["output"]), origin=expected[0])
        expect_array(got[1], call=call + " weights", shape=tuple(entry["weights"]), origin=expected[1])
        expect_pair(got, expected, call=call)                   # the right shapes holding the right values


@check(points=1, task=3, rule="raises")
def test_mhsa_rejects_indivisible(impl, ref, rng):
    """multi_head_self_attention raises ValueError when d_model is not divisible by n_heads"""
    X = normal(rng, (3, 6))
    W = [normal(rng, (6, 6)) for _ in range(4)]
    expect_pair(impl.multihead.multi_head_self_attention(X, *W, 2), ref.multihead.multi_head_self_attention(X, *W, 2),
                call=mhsa_call(X, W, 2))                        # a valid call must work before errors score
    expect_value_error(lambda: impl.multihead.multi_head_self_attention(X, *W, 4), call=mhsa_call(X, W, 4),
                       why="d_model=6 is not divisible by n_heads=4")


@check(points=1, task=3, rule="dtype")
def test_multihead_dtypes(impl, ref, rng):
    """split_heads, merge_heads and multi_head_self_attention keep float32; integer input gives float64"""
    X = normal(rng, (2, 4, 6), np.float32)
    expect_dtypes(impl.multihead.split_heads(X, 2), ref.multihead.split_heads(X, 2),
                  call=call_text("split_heads", arg("X", X), "n_heads=2"))
    heads = normal(rng, (2, 4, 3), np.float32)
    expect_dtypes(impl.multihead.merge_heads(heads), ref.multihead.merge_heads(heads),
                  call=call_text("merge_heads", arg("X", heads)))
    for dtype in (np.float32, int):
        X = (normal(rng, (3, 4)) * 3).astype(dtype)
        W = [(normal(rng, (4, 4)) * 2).astype(dtype) for _ in range(4)]
        expected = ref.multihead.multi_head_self_attention(X, *W, 2)
        expect_dtypes(impl.multihead.multi_head_self_attention(X, *W, 2), expected, call=mhsa_call(X, W, 2))


@check(points=1, task=3, rule="untouched")
def test_multihead_leaves_inputs_untouched(impl, ref, rng):
    """split_heads, merge_heads and multi_head_self_attention leave the caller's arrays as they were"""
    X = normal(rng, (2, 5, 8))
    expect_untouched(impl, "multihead", "split_heads", (X, 4), names=("X", "n_heads"),
                     expected=ref.multihead.split_heads(X, 4), mistake=MODIFIES_INPUT)
    heads = normal(rng, (2, 4, 5, 2))
    expect_untouched(impl, "multihead", "merge_heads", (heads,), names=("X",),
                     expected=ref.multihead.merge_heads(heads), mistake=MODIFIES_INPUT)
    X, W = normal(rng, (5, 8)), [normal(rng, (8, 8), scale=8 ** -0.5) for _ in range(4)]
    mask = ref.masking.causal_mask(5)
    expect_untouched(impl, "multihead", "multi_head_self_attention", (X, *W, 2), {"mask": mask},
                     names=("X", "W_Q", "W_K", "W_V", "W_O", "n_heads"),
                     expected=ref.multihead.multi_head_self_attention(X, *W, 2, mask=mask), mistake=MODIFIES_INPUT)
