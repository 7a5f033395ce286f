"""Issue 11 item 1: under ``attnkit grade`` each exercise is graded on its own code: its calls of other
exercises' functions are answered by the reference on the trusted side (grader/sandbox/inside/standin.py)."""
import numpy as np
import pytest

from grader.runner import reference_siblings
from grader.sandbox.host import errors
from grader.sandbox.host.workspace import Workspace
from grader.sandbox.inside import standin
from solutions.softmax import softmax as reference_softmax
from tests.sessionkit import run_folder

BROKEN_SOFTMAX = '''import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    return np.exp(x) / np.exp(x).sum()  # a global sum: wrong for every slice of more than one
'''
# attention as students write its sibling imports: flat, module-qualified, relative, and the package name
IMPORT_STYLES = {
    "flat": "from softmax import softmax",
    "module": "import softmax as _s\nsoftmax = _s.softmax",
    "relative": "from .softmax import softmax",
    "package": "from submission.softmax import softmax",
}
PROBES = '''

def probe_softmax(x, axis=-1):
    return softmax(x, axis=axis)


def probe_object():
    return softmax(object())


def probe_own_class():
    from submission.kv_cache import KVCache
    return type(KVCache()).__module__
'''


def scores(results):
    return {r.exercise: (r.score, r.max_score) for r in results}


def test_grade_charges_a_broken_softmax_once_and_says_so(zygote, submission):
    folder = submission(softmax=BROKEN_SOFTMAX)
    graded = {r.exercise: r for r in run_folder(zygote, folder, ("softmax", "attention", "multihead"),
                                                    own_siblings=False)}
    assert graded["softmax"].score < graded["softmax"].max_score
    assert graded["attention"].score == graded["attention"].max_score
    assert graded["multihead"].score == graded["multihead"].max_score
    assert graded["attention"].note == "graded with the reference softmax; your softmax fails its own checks"
    assert graded["attention"].reference_siblings == {"softmax", "masking"}  # masking: not graded in this run
    # attention passed all its checks, so multihead runs the student's attention, itself on the reference softmax
    assert graded["multihead"].reference_siblings == {"softmax", "masking"}
    assert graded["multihead"].note == graded["attention"].note


def test_grade_runs_a_sibling_that_passed_every_check(zygote, submission):
    graded = run_folder(zygote, submission(), ("softmax", "masking", "attention"), own_siblings=False)
    assert [r.reference_siblings for r in graded] == [set(), set(), set()]
    assert all(r.score == r.max_score and r.note == "" for r in graded)


def test_check_keeps_running_the_students_own_siblings(zygote, submission):
    folder = submission(softmax="def softmax(x, axis=-1):\n    raise NotImplementedError\n")
    attention = run_folder(zygote, folder, ("attention",))[0]
    assert attention.score == 0 and attention.note == ""
    assert "finish exercise softmax first" in attention.first_failure.message


@pytest.mark.parametrize("style", sorted(IMPORT_STYLES))
def test_every_import_style_gets_the_reference(zygote, submission, style):
    source = (submission() / "attention.py").read_text()
    folder = submission(softmax=BROKEN_SOFTMAX,
                        attention=source.replace("from .softmax import softmax", IMPORT_STYLES[style]) + PROBES)
    x = np.random.default_rng(0).standard_normal((3, 4))
    with Workspace(folder, zygote.user) as workspace:
        impl = zygote.implementation(workspace, "attention", siblings=reference_siblings("attention"))
        try:
            np.testing.assert_allclose(impl.attention.probe_softmax(x), reference_softmax(x), rtol=1e-12)
            assert impl.siblings_called == {"softmax"}
            assert impl.attention.probe_own_class() == "submission.kv_cache"  # not a prerequisite: the student's
        finally:
            impl.close()


def test_a_bad_argument_raises_the_references_error_in_the_students_code(zygote, submission):
    folder = submission(attention=(submission() / "attention.py").read_text() + PROBES)
    with Workspace(folder, zygote.user) as workspace:
        impl = zygote.implementation(workspace, "attention", siblings=reference_siblings("attention"))
        try:
            with pytest.raises(errors.StudentRaised) as raised:
                impl.attention.probe_softmax(np.zeros((2, 3)), axis=5)
            assert raised.value.error_type == "AxisError"
            assert "attention.py" in raised.value.message and "sibling" not in raised.value.message
            with pytest.raises(errors.StudentRaised) as raised:
                impl.attention.probe_object()  # not something the wire carries
            assert raised.value.error_type == "TypeError"
            assert not impl.dead  # the child stays usable
            assert impl.attention.probe_softmax([0.0, 0.0]) == pytest.approx([0.5, 0.5])
        finally:
            impl.close()


def test_siblings_are_the_prerequisites_plain_functions():
    functions = reference_siblings("attention").functions
    assert set(functions) == {"softmax", "masking"}  # attention's depends_on; never itself nor a later exercise
    assert functions["softmax"] == ("softmax",)
    assert "KVCache" in reference_siblings("sampling").functions["kv_cache"]  # lent by the sandbox, never called back
    assert set(functions["masking"]) == {"causal_mask", "padding_mask", "apply_mask"}
    assert reference_siblings("softmax").functions == {}
    assert set(reference_siblings("gqa").functions) == {"multihead", "attention", "softmax", "masking"}  # transitive
    assert "KVCache" not in reference_siblings("kv_cache").functions.get("softmax", ())


def test_prerequisites_follow_depends_on_transitively(monkeypatch):
    from grader import curriculum

    assert curriculum.prerequisites("softmax") == ()
    assert curriculum.prerequisites("attention") == ("softmax", "masking")
    assert curriculum.prerequisites("attention_backward") == ("softmax", "masking", "attention")
    assert curriculum.prerequisites("gqa") == ("softmax", "masking", "attention", "multihead")


def test_a_callback_storm_is_cut_at_the_cap(zygote, submission, monkeypatch):
    monkeypatch.setattr("grader.sandbox.host.transport.MAX_CALLBACKS", 50)
    storm = "\n\ndef storm():\n    for _ in range(1000):\n        softmax([0.0, 1.0])\n"
    folder = submission(attention=(submission() / "attention.py").read_text() + storm)
    with Workspace(folder, zygote.user) as workspace:
        impl = zygote.implementation(workspace, "attention", siblings=reference_siblings("attention"))
        with pytest.raises(errors.StudentBadValue, match="more than 50 calls of other exercises' functions"):
            impl.attention.storm()
        assert impl.dead  # killed: it is not trusted to answer the next request sensibly


def test_a_call_too_large_for_the_trusted_side_runs_the_students_own(zygote, submission):
    big = "\n\ndef big_softmax():\n    return softmax(np.zeros((2048, 16)))\n"
    folder = submission(softmax=BROKEN_SOFTMAX, attention=(submission() / "attention.py").read_text() + big)
    with Workspace(folder, zygote.user) as workspace:
        impl = zygote.implementation(workspace, "attention", siblings=reference_siblings("attention"))
        try:
            got = impl.attention.big_softmax()
            np.testing.assert_allclose(got, np.full((2048, 16), 1 / (2048 * 16)))  # the student's global sum
            assert impl.siblings_called == set()
        finally:
            impl.close()


def test_the_work_estimate_bounds_what_size_arguments_build():
    assert standin.work((np.zeros((3, 4)),), {"axis": -1}) < 100
    for args in ((10**6,), (8, 1000, 1000), (np.zeros((2, 5, 3)), 10**5)):  # causal_mask, alibi_bias, repeat_kv
        assert standin.too_large(args, {})


def test_grade_charges_a_broken_helper_once_inside_its_own_module(zygote, submission):
    """Issue 21 item 6: a function of the exercise's own module that another one calls (softmax_backward inside
    attention_backward, split_heads inside multi_head_self_attention) is answered by the reference while the
    other runs: the broken helper costs its own checks only. attnkit check still runs the student's helper."""
    source = (submission() / "attention_backward.py").read_text()
    broken = source.replace("return y * (dy - weighted)", "return y * dy", 1)
    assert broken != source
    folder = submission(attention_backward=broken)
    graded = run_folder(zygote, folder, ("attention_backward",), own_siblings=False)[0]
    lost = {c.name for c in graded.checks if c.points < c.max_points}
    assert {"test_softmax_backward_matches_reference", "test_softmax_backward_saturated"} <= lost
    assert not {c.name for c in graded.checks if c.name.startswith("test_attention_backward_")
                and c.name != "test_attention_backward_dtypes"} & lost, lost  # the value checks of the caller
    assert graded.note == ""  # the own module is no other exercise graded with the reference
    checked = run_folder(zygote, folder, ("attention_backward",), own_siblings=True)[0]
    assert any(c.name.startswith("test_attention_backward") and c.points < c.max_points for c in checked.checks)


def test_a_refused_own_function_callback_is_still_refused_for_other_names(zygote, submission):
    siblings = reference_siblings("attention_backward")
    assert "softmax_backward" in siblings.own and "attention_backward" not in siblings.functions


def test_a_size_in_any_form_counts_as_a_size():
    """Issue 22 item 5: causal_mask(np.array(23200)) made the grading worker build a 23200 x 23200 mask."""
    class Index:
        def __index__(self):
            return 23200

    for size in (23200, np.int64(23200), np.array(23200), np.array(23200.0), np.float64(23200), Index()):
        assert standin.too_large((size,), {}), type(size)
    assert not standin.too_large((np.array(8),), {})


def test_the_trusted_side_refuses_a_size_hidden_in_a_0d_array():
    from grader.sandbox.host.callbacks import CallbackRefused, answer_callback

    frame = {"callback": {"module": "masking", "name": "causal_mask"}, "args": {"t": "tuple", "items": [
        {"t": "array", "i": 0}]}, "kwargs": {"t": "list", "items": []}}
    with pytest.raises(CallbackRefused, match="larger than the reference answers"):
        answer_callback(reference_siblings("attention"), frame, [np.array(23200)], set())
