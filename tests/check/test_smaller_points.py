"""Issue 23's smaller points: task order, the folder found from inside it, a missing module named as such,
argument names in restated calls, a class summary refused as feedback, one colour scale per ALiBi head,
one fold per notebook hint, and help text for gradescope build -o."""
import io
import json
import shutil
from pathlib import Path

import pytest

from attnkit import check, pack
from attnkit.check.report import render
from grader import curriculum, signatures
from grader.compare import restate
from grader.results import CheckResult, ExerciseResult, Status

ROOT = Path(__file__).resolve().parents[2]


def _failing(task: int, name: str) -> CheckResult:
    return CheckResult("kv_cache", name, f"check of task {task}", task, 0.0, 1.0, Status.FAILED,
                       message=f"{name} failed")


def test_failures_are_listed_in_task_order():
    result = ExerciseResult("kv_cache", [_failing(2, "second_task"), _failing(1, "first_task")])
    assert result.first_failure.name == "first_task"
    shown = render([result]).splitlines()
    assert [line.split(":")[0] for line in shown if line.startswith("kv_cache, task")] == ["kv_cache, task 1 (KVCache)"]
    every = render([result], every=True)
    assert every.index("kv_cache, task 1") < every.index("kv_cache, task 2")
    assert "1 more failing check: attnkit check kv_cache --all" in render([result])


def test_a_students_message_holding_the_diagnosis_marker_is_told_apart():
    """Two failures that differ only after the words "looks like" in the student's own error message are two
    things to say: the diagnosis is taken off the shown failure's message at its end, not at the first marker."""
    from grader.results import DIAGNOSED

    said = "kv_cache.append(...) raised ValueError: bad cache" + DIAGNOSED
    shown = CheckResult("kv_cache", "first", "check of task 1", 1, 0.0, 1.0, Status.FAILED,
                        message=said + "a full cache" + DIAGNOSED + "the classic mistake", mistake="some_mistake")
    other = CheckResult("kv_cache", "second", "check of task 1", 1, 0.0, 1.0, Status.FAILED,
                        message=said + "an empty cache")
    same = CheckResult("kv_cache", "third", "check of task 1", 1, 0.0, 1.0, Status.FAILED,
                       message=said + "a full cache")
    assert "1 more failing check: attnkit check kv_cache --all" in render([ExerciseResult("kv_cache", [shown, other])])
    assert "more failing check" not in render([ExerciseResult("kv_cache", [shown, same])])


def _student(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "solutions", tmp_path / "mine" / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "mine"


def test_check_and_pack_find_the_folder_from_inside_it(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    folder = _student(tmp_path)
    for inside in (folder / "exercises", folder):
        monkeypatch.chdir(inside)
        out = io.StringIO()
        assert check.main(["softmax"], out=out) == 0 and "PASS  softmax" in out.getvalue()
    monkeypatch.chdir(folder / "exercises")
    assert pack.main(out=io.StringIO()) == 0
    assert (folder / "submission.zip").is_file() and not (folder / "exercises" / "submission.zip").exists()
    monkeypatch.chdir(tmp_path)  # nothing to find here
    assert check.main(["softmax"], out=io.StringIO()) == 2


def test_a_missing_module_is_named_as_a_missing_file(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    folder = _student(tmp_path) / "exercises"
    (folder / "softmax.py").unlink()
    out = io.StringIO()
    check.main(["softmax", "attention"], folder, out=out)
    text = out.getvalue()
    assert "submission.softmax" not in text and "No module named" not in text
    assert "there is no softmax.py in your folder" in text
    assert "attention: blocked by exercise softmax, fix it first: your attention.py imports softmax, and there is " \
           "no softmax.py in your folder" in text


def test_restated_calls_name_their_arguments(tmp_path, monkeypatch):
    import numpy as np

    x = np.zeros((4, 8))
    names = signatures.parameters("attention", "scaled_dot_product_attention")
    assert names[:3] == ("Q", "K", "V")
    assert restate("scaled_dot_product_attention", (x, x, x), {"mask": x > 0}, names) == (
        "scaled_dot_product_attention(Q of shape (4, 8), K of shape (4, 8), V of shape (4, 8), "
        "mask of shape (4, 8) bool)")
    assert restate("split_heads", (x, 2), {}, ("X", "n_heads")) == "split_heads(X of shape (4, 8), n_heads=2)"
    assert signatures.method_parameters("KVCache", "append") == ("k", "v")  # a method: no self
    recorded = tmp_path / "signatures.json"  # the release: names from its recording, never a solutions import
    recorded.write_text(json.dumps({"attention": {"scaled_dot_product_attention": ["Q", "K", "V", "mask"]}}))
    monkeypatch.setattr(signatures, "RECORDED", recorded)
    monkeypatch.setattr(signatures, "of_module", lambda module: pytest.fail("imported solutions in a release"))
    signatures.parameters.cache_clear()
    signatures._recorded.cache_clear()
    try:
        assert signatures.parameters("attention", "scaled_dot_product_attention") == ("Q", "K", "V", "mask")
        assert signatures.parameters("softmax", "softmax") == ()
    finally:
        signatures.parameters.cache_clear()
        signatures._recorded.cache_clear()


def test_a_class_summary_is_not_taken_as_feedback(tmp_path):
    from attnkit.quiz.feedback import FeedbackError, read

    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"students": 3, "graded": 3, "exercises": [{"exercise": "softmax", "mean": 1}]}))
    with pytest.raises(FeedbackError, match="not graded feedback of one student"):
        read(summary, {"softmax_no_max_subtraction"})


def test_each_alibi_head_has_its_own_colour_scale():
    pytest.importorskip("matplotlib")
    from attnkit.show.figures import alibi_figure
    from attnkit.show.model import alibi_example

    example = alibi_example(4, 6)
    figure = alibi_figure(example)
    limits = [image.get_clim() for ax in figure.axes for image in ax.get_images()]
    assert limits == [(float(example.bias[h].min()), 0.0) for h in range(4)]
    assert len(figure.axes) == 4 + 4  # a colour bar beside each head


def test_each_notebook_hint_has_its_own_fold():
    from attnkit.nbgrader.notebook import _task_text

    exercise = curriculum.get("multihead")
    part = type("Part", (), {"task": exercise.tasks[2], "code": None, "name": ""})()
    text = _task_text(exercise, part)
    assert text.count("<details>") == len(exercise.tasks[2].hints) == text.count("</details>")
    for number, hint in enumerate(exercise.tasks[2].hints, start=1):
        fold = text.split(f"<summary>Hint {number}</summary>", 1)[1].split("</details>", 1)[0]
        assert fold.strip() == hint


def test_gradescope_build_output_has_help(capsys):
    from attnkit.cli import main

    assert main(["gradescope", "build", "--help"]) == 0
    assert "the autograder zip to write" in capsys.readouterr().out
