"""Code that works for one number of leading axes only (issue 21, round three): the student's function is run
again, through the same ``impl`` proxy, with one leading axis more and one fewer, and the rank that works is
named. Planted in two exercises, a fixed axis counted from the front and a fixed-rank unpacking."""
import numpy as np

from grader import diagnose_rank
from grader.results import Status
from tests.grader.graderkit import copy_solutions, run


def mistakes_of(impl, exercise):
    return {check.mistake: check.message for check in run(impl, exercise).checks if check.status == Status.FAILED}


def test_repeat_kv_along_a_fixed_axis_is_named_with_the_rank_that_works(tmp_path):
    impl = copy_solutions(tmp_path)
    path = impl / "gqa.py"
    path.write_text(path.read_text().replace("np.repeat(x, n_rep, axis=-3)", "np.repeat(x, n_rep, axis=1)"))
    found = mistakes_of(impl, "gqa")
    assert "shape_rank_dependent" in found, found
    assert "with one leading axis more (" in found["shape_rank_dependent"], found


def test_a_fixed_rank_unpacking_is_named_with_the_rank_that_works(tmp_path):
    impl = copy_solutions(tmp_path)
    path = impl / "softmax.py"
    source = path.read_text()
    body = source.index("    ### BEGIN SOLUTION")
    path.write_text(source[:body] + "    rows, cols = np.shape(x)\n" + source[body:])
    found = mistakes_of(impl, "softmax")
    assert "error_unpack_rank" in found, found   # the failing line's family, with the rank that works beside it
    assert "the same call gives the right result with one leading axis more (x of shape (2, 3))" in \
        found["error_unpack_rank"], found


def test_no_rank_is_named_when_the_student_is_wrong_at_every_rank():
    def reference(x):
        return x * 2.0

    def student(x):
        return x * 3.0

    x = np.ones((2, 3, 4))
    assert diagnose_rank.explain(student, reference, (x,), {}, {0: "x"}) is None
    assert diagnose_rank.explain(reference, reference, (x,), {}, {0: "x"}) is not None


def test_the_variants_change_only_the_highest_rank_arrays():
    X, W, mask = np.ones((2, 5, 4)), np.ones((4, 4)), np.ones((5, 5), dtype=bool)
    runs = diagnose_rank.variants((X, W), {"mask": mask}, {0: "X", 1: "W_Q"})
    assert [shapes for _, _, _, shapes in runs] == [{"X": (2, 2, 5, 4)}, {"X": (5, 4)}]
    assert all(args[1] is W and kwargs["mask"] is mask for _, args, kwargs, _ in runs)


def test_a_failure_raised_in_another_exercises_module_is_not_run_again():
    from grader.diagnosis import Session
    from grader.reference import reference
    from grader.sandbox.host.errors import StudentRaised

    session = Session(reference())
    session.ref.gqa.repeat_kv(np.ones((2, 3, 4)), 2)

    asked = []

    class Impl:
        def __getattr__(self, name):
            asked.append(name)
            raise AttributeError(name)

    sibling = StudentRaised("repeat_kv raised ValueError: bad", function="repeat_kv", error_type="ValueError",
                            error_message="bad", sibling="gqa")
    assert session.diagnose_rank(sibling, Impl(), None) is None and asked == []
    own = StudentRaised("repeat_kv raised ValueError: bad", function="repeat_kv", error_type="ValueError",
                        error_message="bad")
    assert session.diagnose_rank(own, Impl(), None) is None and asked == ["gqa"]


def test_a_difference_of_precision_is_not_put_down_to_the_rank(tmp_path):
    """softmax computed in float32 fails a check that compares at float64's precision: right at every rank by the
    tolerance a rerun is judged by, so no rank is named (a rerun would call it 'right at another rank')."""
    impl = copy_solutions(tmp_path)
    path = impl / "softmax.py"
    source = path.read_text()
    body = source.index("    ### BEGIN SOLUTION")
    path.write_text(source[:body] + "    x = np.asarray(x, dtype=np.float32)\n" + source[body:])
    found = mistakes_of(impl, "softmax")
    assert found and "shape_rank_dependent" not in found, found
