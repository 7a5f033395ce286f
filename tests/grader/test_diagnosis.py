"""grader.diagnosis on its own: tracing an expected value to its ref call, the diagnostic tolerance,
compute mistakes, values judged before dtype, and what is never diagnosed."""
import numpy as np
import pytest

from grader.compare import CheckFailed, expect_close
from grader.diagnosis import Session, mistaken_reference
from grader.mistakes import attention, masking, positional
from grader.reference import reference


def failure_of(got, expected, **options) -> CheckFailed:
    with pytest.raises(CheckFailed) as caught:
        expect_close(got, expected, call="f(x)", **options)
    return caught.value


def rotate_half_in_float32(x, positions):
    """A GPT-NeoX style RoPE whose cos/sin tables are float32, on float64 input."""
    d = x.shape[-1]
    theta = (positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    cos, sin = np.cos(theta), np.sin(theta)
    first, second = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([first * cos - second * sin, first * sin + second * cos], axis=-1)


def test_a_float32_variant_of_a_mistake_is_still_that_mistake():
    session = Session(reference())
    x = np.random.default_rng(0).standard_normal((6, 8))
    expected = session.ref.positional.apply_rope(x)
    got = rotate_half_in_float32(x, np.arange(6.0))
    exact = mistaken_reference(positional.ROTATE_HALF.id)["positional"].apply_rope(x)
    assert not np.allclose(got, exact, rtol=1e-7, atol=1e-9)  # outside the pass tolerance of the mistake itself
    assert session.diagnose(failure_of(got, expected)) == positional.ROTATE_HALF


def test_tuple_parts_and_printed_values_are_traced_to_their_call():
    session = Session(reference())
    rng = np.random.default_rng(1)
    Q, K, V = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)), rng.standard_normal((3, 2))
    output, weights = session.ref.attention.scaled_dot_product_attention(Q, K, V)
    wrong = mistaken_reference(attention.NO_SCALE.id)["attention"].scaled_dot_product_attention(Q, K, V)
    assert session.diagnose(failure_of(wrong[1], weights)) == attention.NO_SCALE
    assert session.diagnose(failure_of(wrong[0], output)) == attention.NO_SCALE
    printed = np.round(weights, 4)  # a document's value: not a ref result, so the check names its origin
    assert session.diagnose(failure_of(wrong[1], printed, atol=1e-4)) is None
    assert session.diagnose(failure_of(wrong[1], printed, atol=1e-4, origin=weights)) == attention.NO_SCALE


def test_a_compute_mistake_sees_the_students_value():
    session = Session(reference())
    scores, mask = np.arange(9.0).reshape(3, 3), np.tril(np.ones((3, 3), dtype=bool))
    expected = session.ref.masking.apply_mask(scores, mask)
    got = np.where(mask, scores, -1e4)
    assert session.diagnose(failure_of(got, expected)) == masking.APPLY_LARGE_NEGATIVE
    assert session.diagnose(failure_of(np.where(mask, scores, -5.0), expected)) is None


def test_values_are_judged_before_dtype():
    session = Session(reference())
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    expected = session.ref.softmax.softmax(x, axis=0)
    got = np.exp(x.astype(np.float64)) / np.exp(x.astype(np.float64)).sum(axis=-1, keepdims=True)  # axis ignored
    failure = failure_of(got, expected)
    assert "wrong values" in failure.message and "dtype" not in failure.message
    assert session.diagnose(failure).id == "softmax_wrong_axis"


def test_untraced_values_and_unknown_mistakes_give_no_diagnosis():
    session = Session(reference())
    x = np.random.default_rng(3).standard_normal(5)
    expected = session.ref.softmax.softmax(x)
    assert session.diagnose(failure_of(np.zeros(5), expected.copy())) is None   # not a ref result
    assert session.diagnose(failure_of(np.zeros(5), expected)) is None          # no mistake gives zeros
