"""Checks for exercise ``masking``: causal and padding masks, applied before the softmax."""
import numpy as np

from grader import document_values as doc
from grader.checks.common import DTYPES, expect_dtypes, expect_mask, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text, expect_close
from grader.mistakes.masking import APPLY_MODIFIES_INPUT


@check(points=2, task=1)
def test_causal_mask_matches_document(impl, ref):
    """causal_mask(5) is the textbook 5 x 5 causal mask (position 0 sees only itself, position 4 sees all five)"""
    expected = doc.causal_mask_5()
    origin = ref.masking.causal_mask(5)
    expect_mask(impl.masking.causal_mask(5), expected, call="causal_mask(5)", origin=origin)


@check(points=1, task=1)
def test_causal_mask_sizes(impl, ref):
    """causal_mask(n) is lower-triangular for n = 7, 2, 1"""
    for n in (7, 2, 1):  # n = 1 last: there a strict and an inverted mask look the same
        expected = ref.masking.causal_mask(n)
        expect_mask(impl.masking.causal_mask(n), expected, call=f"causal_mask({n})")


@check(points=2, task=2)
def test_padding_mask(impl, ref):
    """padding_mask marks the real tokens of each sequence (True where t < length)"""
    for lengths, max_len in (([3, 1, 4, 0], 4), (np.array([2, 5]), 6), ([1], 1)):
        expected = ref.masking.padding_mask(lengths, max_len)
        call = call_text("padding_mask", f"lengths={np.asarray(lengths).tolist()}", f"max_len={max_len}")
        expect_mask(impl.masking.padding_mask(lengths, max_len), expected, call=call)


@check(points=3, task=3)
def test_apply_mask_matches_reference(impl, ref, rng):
    """apply_mask puts -inf exactly where the mask is False (causal, padding, broadcast masks)"""
    causal = np.tril(np.ones((5, 5), dtype=bool))
    padding = np.arange(6)[None, None, :] < np.array([6, 3])[:, None, None]   # (2, 1, 6), broadcast over queries
    cases = ((normal(rng, (5, 5)), causal), (normal(rng, (2, 4, 6)), padding),
             (normal(rng, (3, 5, 5), np.float32), causal), (normal(rng, (2, 4, 6), np.float32), padding),
             (np.arange(25).reshape(5, 5), causal))
    for scores, mask in cases:
        expected = ref.masking.apply_mask(scores, mask)
        call = call_text("apply_mask", arg("scores", scores), arg("mask", mask))
        got = impl.masking.apply_mask(scores, mask)
        expect_close(got, expected, call=call)


@check(points=1, task=3, rule="dtype")
def test_masking_dtypes(impl, ref, rng):
    """masks are boolean; apply_mask keeps float32 and returns float64 for integer scores (-inf is not an int)"""
    expect_dtypes(impl.masking.causal_mask(4), ref.masking.causal_mask(4), call="causal_mask(4)")
    expected = ref.masking.padding_mask([2, 3], 3)
    expect_dtypes(impl.masking.padding_mask([2, 3], 3), expected, call="padding_mask(lengths=[2, 3], max_len=3)")
    mask = np.tril(np.ones((3, 3), dtype=bool))
    for scores in (normal(rng, (3, 3), np.float32), np.arange(9).reshape(3, 3)):
        expected = ref.masking.apply_mask(scores, mask)
        call = call_text("apply_mask", arg("scores", scores), arg("mask", mask))
        expect_dtypes(impl.masking.apply_mask(scores, mask), expected, call=call)


@check(points=1, task=3)
def test_apply_mask_document_scores(impl, ref):
    """apply_mask with causal_mask(3) on the "India is great" example's scores keeps the lower triangle, -inf above"""
    scaled = doc.india_expected()["raw_scores"].value / 2.0
    mask = np.tril(np.ones((3, 3), dtype=bool))
    expected = np.where(mask, scaled, -np.inf)
    for dtype in DTYPES:
        scores = scaled.astype(dtype)
        origin = ref.masking.apply_mask(scores, mask)
        expect_close(impl.masking.apply_mask(scores, mask), expected.astype(dtype),
                     call=call_text("apply_mask", arg("scores", scores), arg("mask", mask)), origin=origin)


@check(points=1, task=3, rule="untouched")
def test_apply_mask_leaves_inputs_untouched(impl, ref, rng):
    """apply_mask leaves the caller's scores and mask as they were (it returns a masked copy)"""
    for dtype in DTYPES:
        scores = normal(rng, (2, 4, 4), dtype)
        mask = ref.masking.causal_mask(4)
        expect_untouched(impl, "masking", "apply_mask", (scores, mask), names=("scores", "mask"),
                         expected=ref.masking.apply_mask(scores, mask), mistake=APPLY_MODIFIES_INPUT)
