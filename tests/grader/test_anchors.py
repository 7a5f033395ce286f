"""Mistakes edit named places of the solutions (grader/mistakes/anchors.py): an edit applies only at its anchor's
line, and one that no longer applies stops the mistakes from loading, naming the mistake."""
import pytest

from attnkit.release.stubs import make_stub, strip_markers
from grader import mistakes
from grader.mistakes.anchors import Edit, PatchError, anchors, apply, strip

SOURCE = """def f(x, y):
    # anchor: f.total
    total = x + y  # the sum
    scaled = total * 2
    # anchor: f.result
    return scaled
"""


def test_an_edit_replaces_text_starting_on_its_line_and_keeps_the_markers():
    patched = apply(SOURCE, (Edit("f.total", "x + y", "x - y"), Edit("f.result", "return scaled", "return total")))
    assert patched == SOURCE.replace("x + y", "x - y").replace("return scaled", "return total")
    assert anchors(SOURCE) == {"f.total": 1, "f.result": 3} and "anchor" not in strip(SOURCE)


def test_old_text_may_run_over_the_next_lines_and_a_marker_between_them():
    patched = apply(SOURCE, (Edit("f.total", "total = x + y  # the sum\n    scaled = total * 2\n    return",
                                  "scaled = 0\n    return"),))
    assert strip(patched) == "def f(x, y):\n    scaled = 0\n    return scaled\n"


@pytest.mark.parametrize("edit, message", [
    (Edit("f.gone", "x + y", "x"), "no line is marked '# anchor: f.gone'"),
    (Edit("f.result", "total * 2", "total"), "'total * 2' starts 0 times on the line of anchor 'f.result'"),
    (Edit("f.total", "x + z", "x"), "'x + z' starts 0 times on the line of anchor 'f.total'"),
])
def test_an_edit_that_does_not_apply_at_its_anchor_is_refused(edit, message):
    with pytest.raises(PatchError, match="mistake m: " + message.replace("*", r"\*").replace("+", r"\+")):
        apply(SOURCE, (edit,), "mistake m")


def test_overlapping_edits_and_an_anchor_used_twice_are_refused():
    with pytest.raises(PatchError, match="overlap"):
        apply(SOURCE, (Edit("f.total", "total = x", "t = x"), Edit("f.total", "x + y", "y")))
    with pytest.raises(PatchError, match="the anchor 'f.total' marks two lines"):
        apply(SOURCE.replace("# anchor: f.result", "# anchor: f.total"), ())
    with pytest.raises(TypeError, match="a patch is a tuple of Edit"):
        apply(SOURCE, (("x + y", "x"),))


def test_students_never_see_the_markers():
    solution = "def f(x):\n    # anchor: f.out\n    ### BEGIN SOLUTION do it\n    return x\n    ### END SOLUTION\n"
    outside = "# anchor: top.value\nVALUE = 1\n" + solution
    assert "anchor" not in make_stub(outside) and "anchor" not in strip_markers(outside)


def test_editing_an_anchored_line_of_a_solution_stops_the_mistakes_from_loading(monkeypatch, tmp_path):
    source = (mistakes.SOLUTIONS / "softmax.py").read_text(encoding="utf-8")
    edited = source.replace("exps = np.exp(x - row_max)", "exps = np.exp(x - row_max.copy())")
    (tmp_path / "softmax.py").write_text(edited, encoding="utf-8")
    monkeypatch.setattr(mistakes, "SOLUTIONS", tmp_path)
    mistakes.of_exercise.cache_clear()
    try:
        with pytest.raises(PatchError, match="grader/mistakes/softmax.py, mistake softmax_no_max_subtraction on "
                                             "solutions/softmax.py: 'exps = np.exp\\(x - row_max\\)' starts 0 times"):
            mistakes.of_exercise("softmax")
    finally:
        mistakes.of_exercise.cache_clear()
