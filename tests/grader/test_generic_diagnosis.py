"""The mechanisms that name mistakes nobody catalogued (grader.mistakes.generic): shapes explained from the
call's argument shapes, and settings applied where the call did not ask for them (or ignored where it did).
Each test plants the class of mistake in several functions, not one case."""
import numpy as np
import pytest

from grader.compare import CheckFailed, expect_close
from grader.diagnose_shape import explain
from solutions import attention, linear_attention, position_bias, positional, tiled_attention
from tests.grader.graderkit import failure_of


@pytest.fixture
def qkv():
    rng = np.random.default_rng(0)
    return rng.standard_normal((2, 4, 8)), rng.standard_normal((2, 6, 8)), rng.standard_normal((2, 6, 5))


@pytest.mark.parametrize("wrong, family, words", [
    (lambda w: np.swapaxes(w, -1, -2), "shape_transposed", "(got (2, 6, 4), expected (2, 4, 6))"),
    (lambda w: np.swapaxes(w, 0, 1), "shape_axes_swapped", "axes -3 (size 2) and -2 (size 4)"),
    (lambda w: np.transpose(w, (1, 2, 0)), "shape_axes_reordered", "another order"),
    (lambda w: w.mean(axis=0), "shape_axis_missing", "axis -3 of the result (size 2) is missing"),
    (lambda w: w[None], "shape_axis_extra", "a leading axis of size 1 too many"),
])
def test_a_wrong_shape_is_explained_whatever_the_function(session, qkv, wrong, family, words):
    Q, K, V = qkv
    for result in (session.ref.attention.scaled_dot_product_attention(Q, K, V)[1],
                   session.ref.position_bias.biased_attention(Q, K, V)[1]):
        found = session.diagnose(failure_of(np.ascontiguousarray(wrong(result)), result))
        assert found.id == family and words in found.looks_like, found


def test_a_size_taken_from_another_argument_names_that_argument(session, qkv):
    mask = session.ref.masking.padding_mask([3, 5], 6)
    found = session.diagnose(failure_of(mask[:, :5].copy(), mask))
    assert found.id == "shape_size_from_argument" and "max(lengths)" in found.looks_like
    Q, K, V = qkv
    output = session.ref.attention.scaled_dot_product_attention(Q, K, V)[0]
    found = session.diagnose(failure_of(np.zeros((2, 4, 8)), output))  # d_k where d_v was due
    assert found.id == "shape_size_from_argument" and "Q's axis -1" in found.looks_like
    assert explain((2, 7), (2, 6), {"lengths": [3, 5], "max_len": 6}).id == "shape_size"


def test_equal_shapes_need_no_shape_explanation():
    assert explain((2, 3), (2, 3), {}) is None
    assert explain((5,), (2, 3), {}) is None  # no single rule explains it: nothing is claimed


def test_a_setting_applied_although_the_call_did_not_ask_is_named(session, qkv):
    Q, K, V = qkv
    square_k, square_v = K[:, :4], V[:, :4]
    causal = np.tril(np.ones((4, 6), dtype=bool), k=2)
    cases = [
        (session.ref.attention.scaled_dot_product_attention(Q, K, V)[1],
         attention.scaled_dot_product_attention(Q, K, V, causal)[1], "mask=None"),
        (session.ref.position_bias.biased_attention(Q, K, V)[1],
         position_bias.biased_attention(Q, K, V, mask=causal)[1], "mask=None"),
        (session.ref.linear_attention.linear_attention(Q, square_k, square_v),
         linear_attention.linear_attention(Q, square_k, square_v, causal=True), "causal=False"),
        (session.ref.tiled_attention.tiled_attention(Q[0], K[0], V[0], block_size=2),
         tiled_attention.tiled_attention(Q[0], K[0], V[0], block_size=2, causal=True), "causal=False"),
    ]
    for expected, got, words in cases:
        found = session.diagnose(failure_of(got, expected))
        assert found.id == "setting_applied" and words in found.looks_like, found


def test_an_argument_ignored_is_named_and_a_given_mask_made_causal_too(session, qkv):
    Q, K, V = qkv
    rng = np.random.default_rng(1)
    mask = rng.random((4, 6)) < 0.7
    mask[:, 0] = True
    expected = session.ref.position_bias.sliding_window_mask(6, 2, causal=False)
    found = session.diagnose(failure_of(position_bias.sliding_window_mask(6, 2), expected))
    assert found.id == "setting_ignored" and "causal=False made no difference" in found.looks_like
    expected = session.ref.attention.scaled_dot_product_attention(Q, K, V, mask)[1]
    got = attention.scaled_dot_product_attention(Q, K, V, mask & np.tril(np.ones((4, 6), dtype=bool), k=2))[1]
    found = session.diagnose(failure_of(got, expected))
    assert found.id == "setting_applied" and "on top of the mask" in found.looks_like
    x = rng.standard_normal((5, 8))
    expected = session.ref.positional.apply_rope(x, base=500.0)
    found = session.diagnose(failure_of(positional.apply_rope(x), expected))
    assert found.id == "setting_ignored" and "base=500.0 made no difference" in found.looks_like


def test_values_no_setting_explains_get_no_setting_diagnosis(session, qkv):
    Q, K, V = qkv
    weights = session.ref.attention.scaled_dot_product_attention(Q, K, V)[1]
    assert session.diagnose(failure_of(weights * 0.5, weights)) is None


def test_every_family_is_named_by_some_mechanism():
    from pathlib import Path

    from grader.mistakes import generic, of_module

    sources = "".join(path.read_text() for path in Path(generic.__file__).parents[1].glob("*.py"))
    unused = [name for name, value in vars(generic).items() if value in of_module(generic)
              and f"generic.{name}" not in sources]
    assert not unused, unused


def test_a_dtype_changed_with_right_values_is_named_whatever_the_function(session, qkv):
    Q, K, V = (a.astype(np.float32) for a in qkv)
    for expected in (session.ref.softmax.softmax(Q), session.ref.position_bias.biased_attention(Q, K, V)[1],
                     session.ref.linear_attention.elu_feature_map(Q)):
        with pytest.raises(CheckFailed) as caught:
            expect_close(expected.astype(np.float64), expected, call="f(x)", dtype="same")
        found = session.diagnose(caught.value)
        assert found.id == "dtype_changed" and "float32 input came back float64" in found.looks_like, found


@pytest.mark.parametrize("got, due, family", [
    (np.zeros((4, 3)), np.zeros((3, 4)), "shape_transposed"),           # cache.keys stacked as columns
    (np.zeros((2, 3, 4)), np.zeros((3, 2, 4)), "shape_axes_swapped"),
    (np.zeros((3,)), np.zeros((1, 3)), "shape_axis_missing"),
    (np.zeros((1, 3, 4)), np.zeros((3, 4)), "shape_axis_extra"),
])
def test_a_wrong_shape_is_explained_when_the_check_built_the_expected_value(session, got, due, family):
    # no ref call produced the expected value (a cache's keys, a stacked history): the shapes alone still explain
    found = session.diagnose(failure_of(got, due))
    assert found is not None and found.id == family, found
