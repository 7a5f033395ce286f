"""grader.diagnosis on its own: tracing an expected value to its ref call, the diagnostic tolerance,
compute mistakes, values judged before dtype, dtype-only failures, exceptions, and what is never diagnosed."""
import numpy as np
import pytest

from grader.compare import CheckFailed, expect_close, restate
from grader.diagnosis import Session, mistaken_reference
from grader.mistakes import attention, masking, positional, softmax
from grader.reference import reference
from grader.sandbox.host.errors import StudentRaised


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


def raised(call: str, error_type: str, message: str) -> StudentRaised:
    """What the sandbox raises when the student's softmax raised (grader.sandbox.host.proxy.student_error)."""
    return StudentRaised(f"{call} raised {error_type}: {message} (softmax.py, line 14)", call=call,
                         error_type=error_type, error_message=message, function="softmax")


def test_an_exception_a_mistake_explains_is_named_with_what_went_wrong():
    session = Session(reference())
    x = np.random.default_rng(4).standard_normal(6)
    session.ref.softmax.softmax(x, axis=-1)
    call = restate("softmax", (x,), {"axis": -1})
    assert call == "softmax(array of shape (6,), axis=-1)"
    axis_error = session.diagnose(raised(call, "AxisError", "axis 1 is out of bounds for array of dimension 1"))
    assert axis_error.id == softmax.WRONG_AXIS.id and "written into the code" in axis_error.looks_like
    no_axis = session.diagnose(raised(call, "TypeError", "softmax() got an unexpected keyword argument 'axis'"))
    assert no_axis.id == softmax.WRONG_AXIS.id and "does not accept" in no_axis.looks_like
    assert session.diagnose(raised(call, "TypeError", "unsupported operand type(s)")) is None


def test_a_batched_k_transpose_is_named_from_its_matmul_error():
    session = Session(reference())
    rng = np.random.default_rng(5)
    Q, K, V = rng.standard_normal((2, 3, 4, 8)), rng.standard_normal((2, 3, 6, 8)), rng.standard_normal((2, 3, 6, 5))
    session.ref.attention.scaled_dot_product_attention(Q, K, V)
    with pytest.raises(ValueError) as error:
        np.matmul(Q, K.T)
    call = restate("scaled_dot_product_attention", (Q, K, V), {})
    failure = StudentRaised(f"{call} raised ValueError: {error.value} (attention.py, line 3)", call=call,
                            error_type="ValueError", error_message=str(error.value),
                            function="scaled_dot_product_attention")
    assert session.diagnose(failure) == attention.K_TRANSPOSE_BATCHED


def test_a_dtype_only_failure_needs_a_mistake_with_the_students_dtype():
    session = Session(reference())
    rng = np.random.default_rng(6)
    Q, K, V = (rng.standard_normal((3, 4)).astype(np.float32) for _ in range(3))
    output, weights = session.ref.attention.scaled_dot_product_attention(Q, K, V)
    promoted = mistaken_reference(attention.SQRT_PROMOTES_FLOAT32.id)["attention"].scaled_dot_product_attention(Q, K, V)
    failure = failure_of(promoted[1], weights, dtype="same")
    assert failure.dtype_only and "dtype float64" in failure.message
    assert session.diagnose(failure) == attention.SQRT_PROMOTES_FLOAT32
    assert session.diagnose(failure_of(weights.astype(np.float64) * 0, weights)) is None


def test_float32_computation_is_named_and_not_an_unguarded_softmax():
    session = Session(reference())
    rng = np.random.default_rng(7)
    Q, K, V = (rng.standard_normal((4, 8)) for _ in range(3))
    weights = session.ref.attention.scaled_dot_product_attention(Q, K, V)[1]
    scores = Q.astype(np.float32) @ K.T.astype(np.float32) / np.float32(np.sqrt(8))
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    got = (exps / exps.sum(axis=-1, keepdims=True)).astype(np.float64)   # a float32 computation, cast back
    assert session.diagnose(failure_of(got, weights)) == attention.FLOAT32_COMPUTE


def test_a_softmax_along_another_axis_is_the_wrong_axis():
    """Along the last axis when another was asked for (axis ignored), along axis 0 when the last was (hard-coded)."""
    session = Session(reference())
    x = np.random.default_rng(8).standard_normal((3, 4))
    softmax_along = reference().softmax.softmax
    for asked, used in ((0, -1), (-1, 0), (1, 0)):
        expected = session.ref.softmax.softmax(x, axis=asked)
        assert session.diagnose(failure_of(softmax_along(x, axis=used), expected)) == softmax.WRONG_AXIS
    assert session.diagnose(failure_of(np.full_like(x, 1 / 3), expected)) is None


def test_a_wrong_answer_seen_before_is_diagnosed_once_per_process(monkeypatch):
    """The same call and the same wrong value (another student of the class) get the kept diagnosis; another wrong
    value, or the same one against a replayed reference, is diagnosed anew."""
    from grader import diagnosis

    tried = []
    first_match = Session._first_match
    monkeypatch.setattr(Session, "_first_match", lambda self, *a: tried.append(1) or first_match(self, *a))
    rng = np.random.default_rng(7)
    Q, K, V = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)), rng.standard_normal((3, 2))
    wrong = mistaken_reference(attention.NO_SCALE.id)["attention"].scaled_dot_product_attention(Q, K, V)[1]
    for _student in range(3):   # each student: a session of their own, arrays of their own
        session = Session(reference())
        weights = session.ref.attention.scaled_dot_product_attention(Q.copy(), K.copy(), V.copy())[1]
        assert session.diagnose(failure_of(wrong.copy(), weights)) == attention.NO_SCALE
    assert len(tried) == 1 and len(diagnosis.DIAGNOSES) == 1
    session = Session(reference())
    weights = session.ref.attention.scaled_dot_product_attention(Q, K, V)[1]
    assert session.diagnose(failure_of(weights * 1.5, weights)) is None and len(tried) == 2


def test_an_exception_seen_before_is_diagnosed_once_per_process(monkeypatch):
    tried = []
    raising_like = Session._raising_like
    monkeypatch.setattr(Session, "_raising_like", lambda self, *a: tried.append(1) or raising_like(self, *a))
    scores = np.arange(6.0).reshape(2, 3)
    for _student in range(2):
        session = Session(reference())
        session.ref.softmax.softmax(scores.copy(), axis=1)
        session.diagnose(raised("softmax(x of shape (2, 3), axis=1)", "ValueError",
                                "axis 5 is out of bounds for array of dimension 2"))
    assert len(tried) == 1
