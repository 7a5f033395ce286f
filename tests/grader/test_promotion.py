"""The diagnosis of a dtype failure names the module where float32 became float64 (issue 23 item 3): a softmax
that promotes is named in multihead's dtype check, not multihead's own code; multihead's own promotion is still
multihead's."""
from grader.mistakes.model import apply
from grader.mistakes.multihead import SQRT_PROMOTES_FLOAT32
from grader.results import Status
from tests.grader.graderkit import copy_solutions, run


def dtype_failure(impl, exercise):
    return next(c for c in run(impl, exercise).checks if c.name.endswith("_dtypes") and c.status != Status.PASSED)


def test_a_promoting_softmax_is_named_in_the_exercises_that_use_it(tmp_path):
    impl = copy_solutions(tmp_path)
    path = impl / "softmax.py"
    result = "np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)"
    path.write_text(path.read_text().replace(f"return {result}", f"return {result}.astype(np.float64)"))
    for exercise in ("attention", "multihead"):
        failure = dtype_failure(impl, exercise)
        assert failure.mistake == "dtype_changed_in_dependency", failure
        assert "your softmax.py (exercise softmax)" in failure.message


def test_a_promotion_in_the_exercises_own_code_is_named_there(tmp_path):
    impl = copy_solutions(tmp_path)
    mistake = SQRT_PROMOTES_FLOAT32
    path = impl / "multihead.py"
    path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
    failure = dtype_failure(impl, "multihead")
    assert failure.mistake == mistake.id  # the exercises it uses pass their dtype checks: its own code is named
