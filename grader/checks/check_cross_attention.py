"""Checks for exercise ``cross_attention``: queries from one sequence, keys and values from another."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_pair, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import arg, call_text
from grader.mistakes.cross_attention import MODIFIES_INPUT

NAMES = ("X", "Z", "W_Q", "W_K", "W_V", "key_padding_mask")
INTEGER_ARGS = (np.array([[1, 0, 2], [0, 1, 1]]), np.array([[1, 1], [0, 2], [2, 0], [1, 0]]),
                np.array([[1, 0], [0, 1], [1, 1]]), np.array([[0, 1], [1, 0]]), np.array([[1, 2, 0], [0, 1, 1]]))


def cross_call(*args):
    return call_text("cross_attention", *(arg(name, value) for name, value in zip(NAMES, args)))


def check_cross(impl, ref, *args):
    """Compare the student's cross_attention(*args) with the reference's, weights first."""
    expected = ref.cross_attention.cross_attention(*args)
    expect_pair(impl.cross_attention.cross_attention(*args), expected, call=cross_call(*args))


def projections(rng, d_x, d_z, d_k, d_v, dtype=np.float64):
    return (normal(rng, (d_x, d_k), dtype, d_x ** -0.5), normal(rng, (d_z, d_k), dtype, d_z ** -0.5),
            normal(rng, (d_z, d_v), dtype, d_z ** -0.5))


@check(points=4, task=1)
def test_cross_matches_reference(impl, ref, rng):
    """cross_attention matches the reference: n_q != n_kv, d_x != d_z, d_k != d_v, batches, float32, integers, lists"""
    # (batch, n_q, n_kv, d_x, d_z, d_k, d_v, dtype); the first case has n_q == n_kv and d_x == d_z, so a
    # mix-up of X and Z still has the right shape and can be recognised
    for batch, n_q, n_kv, d_x, d_z, d_k, d_v, dtype in (((), 5, 5, 6, 6, 4, 3, np.float64),
                                                         ((), 4, 7, 5, 3, 4, 2, np.float64),
                                                         ((2,), 3, 6, 8, 4, 4, 4, np.float64),
                                                         ((2, 3), 4, 5, 6, 3, 2, 5, np.float32)):
        X, Z = normal(rng, (*batch, n_q, d_x), dtype, 1.5), normal(rng, (*batch, n_kv, d_z), dtype, 1.5)
        check_cross(impl, ref, X, Z, *projections(rng, d_x, d_z, d_k, d_v, dtype))
    check_cross(impl, ref, *INTEGER_ARGS)
    check_cross(impl, ref, *(a.tolist() for a in INTEGER_ARGS))


@check(points=3, task=1)
def test_cross_key_padding_mask(impl, ref, rng):
    """key_padding_mask (True where Z's token is real) removes the padded tokens of Z from every query"""
    for batch, n_q, n_kv, d, dtype, lengths in (((3,), 5, 5, 6, np.float64, [5, 2, 4]),
                                                 ((2,), 3, 6, 4, np.float64, [6, 1]),
                                                 ((2,), 4, 7, 5, np.float32, [3, 7])):
        X, Z = normal(rng, (*batch, n_q, d), dtype), normal(rng, (*batch, n_kv, d), dtype)
        real = np.arange(n_kv)[None, :] < np.array(lengths)[:, None]       # (batch, n_kv)
        check_cross(impl, ref, X, Z, *projections(rng, d, d, 4, 3, dtype), real)
    X, Z = normal(rng, (4, 5)), normal(rng, (6, 5))
    check_cross(impl, ref, X, Z, *projections(rng, 5, 5, 3, 2), np.array([True, True, True, False, True, False]))


@check(points=2, task=1)
def test_cross_padding_content_is_ignored(impl, ref, rng):
    """whatever sits in Z's padded positions (here values 1000 times larger) changes nothing"""
    X, Z = normal(rng, (2, 4, 5)), normal(rng, (2, 6, 5))
    Z[0, 3:] *= 1000.0
    Z[1, 1:] *= 1000.0
    real = np.arange(6)[None, :] < np.array([3, 1])[:, None]
    check_cross(impl, ref, X, Z, *projections(rng, 5, 5, 4, 3), real)


@check(points=2, task=1)
def test_cross_no_real_token(impl, ref, rng):
    """a query whose Z has no real token gets zero weights and a zero output, not NaN"""
    X, Z = normal(rng, (2, 3, 4)), normal(rng, (2, 5, 4))
    W = projections(rng, 4, 4, 4, 2)
    real = np.array([[False] * 5, [True, True, False, False, False]])
    output, weights = ref.cross_attention.cross_attention(X, Z, *W, real)
    if np.any(output[0]) or np.any(weights[0]):
        raise AssertionError("reference does not give zeros when Z has no real token")
    check_cross(impl, ref, X, Z, *W, real)


@check(points=1, task=1, rule="dtype")
def test_cross_attention_dtypes(impl, ref, rng):
    """cross_attention keeps float32 and returns float64 for integer arrays or lists"""
    X, Z = normal(rng, (2, 3), np.float32), normal(rng, (4, 2), np.float32)
    cases = ((X, Z, *projections(rng, 3, 2, 2, 3, np.float32)), INTEGER_ARGS, tuple(a.tolist() for a in INTEGER_ARGS))
    for args in cases:
        expected = ref.cross_attention.cross_attention(*args)
        expect_dtypes(impl.cross_attention.cross_attention(*args), expected, call=cross_call(*args))


@check(points=1, task=1, rule="untouched")
def test_cross_leaves_inputs_untouched(impl, ref, rng):
    """cross_attention leaves the caller's arrays (X, Z, the weights, the padding mask) as they were"""
    X, Z = normal(rng, (3, 4)), normal(rng, (5, 4))
    W_Q, W_K, W_V = normal(rng, (4, 3)), normal(rng, (4, 3)), normal(rng, (4, 2))
    padding = np.array([True, True, True, False, False])
    expect_untouched(impl, "cross_attention", "cross_attention", (X, Z, W_Q, W_K, W_V), {"key_padding_mask": padding},
                     names=("X", "Z", "W_Q", "W_K", "W_V"), mistake=MODIFIES_INPUT,
                     expected=ref.cross_attention.cross_attention(X, Z, W_Q, W_K, W_V, key_padding_mask=padding))


@check(points=1, task=1, rule="raises")
def test_cross_rejects_mismatched_shapes(impl, ref, rng):
    """cross_attention raises ValueError when X and Z have different leading dimensions or the key padding mask
    does not have Z's shape without its last axis"""
    W = projections(rng, 3, 2, 2, 3)
    X, Z = normal(rng, (2, 4, 3)), normal(rng, (2, 5, 2))
    check_cross(impl, ref, X, Z, *W)                            # a valid call must work before errors score
    for other, mask, why in ((normal(rng, (3, 5, 2)), None, "X has 2 sequences and Z has 3"),
                             (Z, np.ones((2, 4), dtype=bool), "Z has 5 tokens, the mask describes 4"),
                             (Z, np.ones((5,), dtype=bool), "the mask needs one row per sequence of Z: (2, 5)")):
        args = (X, other, *W) + (() if mask is None else (mask,))
        expect_value_error(lambda args=args: impl.cross_attention.cross_attention(*args), call=cross_call(*args),
                           why=why)
