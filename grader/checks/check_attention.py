"""Checks for exercise ``attention``: softmax(Q K^T / sqrt(d_k)) V, masks, and self-attention."""
import numpy as np

from grader import document_values as doc
from grader.checks.common import expect_dtypes, expect_pair, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_close
from grader.mistakes.attention import MODIFIES_INPUT

INTEGER_QKV = (np.array([[1, 0], [0, 1], [1, 1]]), np.array([[1, 2], [0, 1]]), np.array([[3, 1, 0], [0, 2, 1]]))


def sdpa_call(Q, K, V, mask=None):
    return call_text("scaled_dot_product_attention", arg("Q", Q), arg("K", K), arg("V", V),
                     *(() if mask is None else (arg("mask", mask),)))


def check_sdpa(impl, ref, Q, K, V, mask=None, call=None):
    expected = ref.attention.scaled_dot_product_attention(Q, K, V, mask)
    args = (Q, K, V) if mask is None else (Q, K, V, mask)
    expect_pair(impl.attention.scaled_dot_product_attention(*args), expected, call=call or sdpa_call(Q, K, V, mask))


@check(points=4, task=1)
def test_sdpa_matches_reference(impl, ref, rng):
    """scaled_dot_product_attention matches the reference (n_q != n_k, d_v != d_k, batches, float32, integers, lists)"""
    shapes = (((4, 8), (4, 8), (4, 8), np.float64), ((3, 6), (5, 6), (5, 2), np.float64),
              ((2, 3, 4, 8), (2, 3, 6, 8), (2, 3, 6, 5), np.float32), ((3, 4), (7, 4), (7, 3), np.float32))
    for q, k, v, dtype in shapes:
        Q, K, V = normal(rng, q, dtype, 1.5), normal(rng, k, dtype, 1.5), normal(rng, v, dtype)
        check_sdpa(impl, ref, Q, K, V)
    Q, K, V = INTEGER_QKV
    check_sdpa(impl, ref, Q, K, V)
    check_sdpa(impl, ref, Q.tolist(), K.tolist(), V.tolist())


@check(points=3, task=1)
def test_sdpa_with_mask(impl, ref, rng):
    """scaled_dot_product_attention masks the scores before the softmax (causal and padding masks)"""
    causal = np.tril(np.ones((5, 5), dtype=bool))
    padding = np.arange(6)[None, None, :] < np.array([6, 2])[:, None, None]  # (2, 1, 6)
    cases = ((normal(rng, (5, 4)), normal(rng, (5, 4)), normal(rng, (5, 3)), causal),
             (normal(rng, (2, 4, 4)), normal(rng, (2, 6, 4)), normal(rng, (2, 6, 3)), padding),
             (*(normal(rng, (2, 5, 8), np.float32) for _ in range(3)), causal))
    for Q, K, V, mask in cases:
        check_sdpa(impl, ref, Q, K, V, mask)


@check(points=2, task=1)
def test_sdpa_fully_masked_query(impl, ref, rng):
    """a query with no allowed key gets zero weights and a zero output, not NaN"""
    Q, K, V = normal(rng, (3, 4)), normal(rng, (4, 4)), normal(rng, (4, 2))
    mask = np.array([[True, True, False, False], [False, False, False, False], [True, True, True, True]])
    expected = ref.attention.scaled_dot_product_attention(Q, K, V, mask)
    if np.any(expected[0][1]) or np.any(expected[1][1]):
        raise AssertionError("reference does not give zeros for a fully masked query")
    check_sdpa(impl, ref, Q, K, V, mask)


@check(points=3, task=1)
def test_sdpa_document_values(impl, ref):
    """scaled_dot_product_attention reproduces the weights and output of the worked "India is great" example"""
    inputs, printed = doc.india_inputs(), doc.india_expected()
    Q, K, V = (inputs["X"] @ inputs[name] for name in ("W_Q", "W_K", "W_V"))
    expected = (printed["output"].value, printed["weights"].value)
    origin = ref.attention.scaled_dot_product_attention(Q, K, V)
    expect_pair(impl.attention.scaled_dot_product_attention(Q, K, V), expected, call=sdpa_call(Q, K, V),
                atol=printed["weights"].atol, rtol=0, origin=origin)


@check(points=1, task=2, rule="dtype")
def test_attention_dtypes(impl, ref, rng):
    """attention keeps float32 float32 and returns float64 for integer arrays or lists"""
    Q, K, V = INTEGER_QKV
    cases = [tuple(normal(rng, shape, np.float32) for shape in ((3, 4), (5, 4), (5, 2))), (Q, K, V),
             (Q.tolist(), K.tolist(), V.tolist())]
    for args in cases:
        expected = ref.attention.scaled_dot_product_attention(*args)
        call = call_text("scaled_dot_product_attention", *(arg(n, a) for n, a in zip("QKV", args)))
        expect_dtypes(impl.attention.scaled_dot_product_attention(*args), expected, call=call)
    for dtype in (np.float32, int):
        X = (normal(rng, (4, 3)) * 3).astype(dtype)
        W = [(normal(rng, (3, d)) * 2).astype(dtype) for d in (2, 2, 3)]
        expected = ref.attention.self_attention(X, *W)
        call = call_text("self_attention", arg("X", X), *(arg(n, w) for n, w in zip(("W_Q", "W_K", "W_V"), W)))
        expect_dtypes(impl.attention.self_attention(X, *W), expected, call=call)


@check(points=2, task=2)
def test_self_attention_document_values(impl, ref):
    """self_attention(X, W_Q, W_K, W_V) reproduces the weights and output of the worked "India is great" example"""
    inputs, printed = doc.india_inputs(), doc.india_expected()
    X, W_Q, W_K, W_V = inputs["X"], inputs["W_Q"], inputs["W_K"], inputs["W_V"]
    expected = (printed["output"].value, printed["weights"].value)
    call = call_text("self_attention", arg("X", X), arg("W_Q", W_Q), arg("W_K", W_K), arg("W_V", W_V))
    origin = ref.attention.self_attention(X, W_Q, W_K, W_V)
    expect_pair(impl.attention.self_attention(X, W_Q, W_K, W_V), expected, call=call, atol=printed["weights"].atol,
                rtol=0, origin=origin)


@check(points=3, task=2)
def test_self_attention_matches_reference(impl, ref, rng):
    """self_attention has the textbook example shapes (10 tokens, d_model 64 -> d_k 32) and matches the reference"""
    cases = []
    for entry in doc.shapes():
        if entry["call"] != "self_attention":
            continue
        sizes = entry["sizes"]
        X = normal(rng, tuple(entry["input"]))
        W = [normal(rng, (sizes["d_model"], sizes[key])) / np.sqrt(sizes["d_model"]) for key in ("d_k", "d_k", "d_v")]
        cases.append((X, *W, None))
    X = normal(rng, (2, 5, 6), np.float32)
    W = [normal(rng, (6, d), np.float32) for d in (4, 4, 3)]
    cases.append((X, *W, np.tril(np.ones((5, 5), dtype=bool))))
    for X, W_Q, W_K, W_V, mask in cases:
        expected = ref.attention.self_attention(X, W_Q, W_K, W_V, mask)
        args = (X, W_Q, W_K, W_V) if mask is None else (X, W_Q, W_K, W_V, mask)
        call = call_text("self_attention", *(arg(n, a) for n, a in zip(("X", "W_Q", "W_K", "W_V", "mask"), args)))
        got = expect_pair(impl.attention.self_attention(*args), expected, call=call)
        expect_close(got[1].sum(axis=-1), np.ones(expected[1].shape[:-1], expected[1].dtype), call=call,
                     what="weights summed over the keys")


@check(points=1, task=2, rule="untouched")
def test_attention_leaves_inputs_untouched(impl, ref, rng):
    """scaled_dot_product_attention and self_attention leave the caller's arrays as they were"""
    Q, K, V = normal(rng, (2, 4, 3)), normal(rng, (2, 5, 3)), normal(rng, (2, 5, 2))
    mask = rng.random((4, 5)) < 0.7
    mask[:, 0] = True
    expect_untouched(impl, "attention", "scaled_dot_product_attention", (Q, K, V), {"mask": mask},
                     names=("Q", "K", "V"), expected=ref.attention.scaled_dot_product_attention(Q, K, V, mask=mask),
                     mistake=MODIFIES_INPUT)
    X, W_Q, W_K, W_V = normal(rng, (5, 4)), normal(rng, (4, 3)), normal(rng, (4, 3)), normal(rng, (4, 2))
    causal = ref.masking.causal_mask(5)
    expect_untouched(impl, "attention", "self_attention", (X, W_Q, W_K, W_V), {"mask": causal},
                     names=("X", "W_Q", "W_K", "W_V"), mistake=MODIFIES_INPUT,
                     expected=ref.attention.self_attention(X, W_Q, W_K, W_V, mask=causal))
