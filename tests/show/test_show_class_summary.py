"""The class summary's pictures: written by ``attnkit.grade.summary.write_all`` beside grades.csv."""
from __future__ import annotations

import json

import numpy as np
import pytest

from attnkit.grade.summary import class_summary, write_all
from attnkit.show import class_summary as pictures
from grader.results import FAILED, PASSED, CheckResult, ExerciseResult, SubmissionResult
from tests.show.showkit import assert_real_picture, read_png

EXERCISES = ("softmax", "attention")


def _check(exercise: str, name: str, passed: bool, mistake: str = "") -> CheckResult:
    return CheckResult(exercise, name, name, 1, 5.0 if passed else 0.0, 5.0, PASSED if passed else FAILED,
                       mistake=mistake)


def _student(name: str, passed: int, mistakes: list[tuple[str, str]]) -> SubmissionResult:
    """``passed`` of 4 checks passed (5 points each); one failed check per listed mistake."""
    checks = {"softmax": [], "attention": []}
    for k in range(4):
        exercise = EXERCISES[k % 2]
        if k < passed:
            checks[exercise].append(_check(exercise, f"test_{k}", True))
        else:
            exercise_m, mistake = mistakes[k - passed] if k - passed < len(mistakes) else (exercise, "")
            checks[exercise_m].append(_check(exercise_m, f"test_{k}", False, mistake))
    return SubmissionResult(name, [ExerciseResult(e, checks[e]) for e in EXERCISES])


def _class() -> list[SubmissionResult]:
    return [
        _student("ann", 4, []),
        _student("ben", 2, [("attention", "attention_no_scale"), ("softmax", "softmax_no_max_subtraction")]),
        _student("cat", 3, [("attention", "attention_no_scale")]),
        _student("dan", 0, [("attention", "attention_no_scale"), ("softmax", "softmax_wrong_axis")]),
        _student("eve", 1, [("attention", "made_up_mistake_id")]),
    ]


@pytest.fixture
def written(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    out.mkdir()
    text = write_all(out, _class(), EXERCISES, {}, [])
    return out, text


def test_pictures_beside_grades_csv(written):
    out, text = written
    assert (out / "grades.csv").is_file()
    assert_real_picture(out / pictures.SCORES_PNG, (800, 450), min_bytes=10_000, min_colours=20)
    assert_real_picture(out / pictures.MISTAKES_PNG, (1000, 700), min_bytes=20_000, min_colours=20)
    assert pictures.DRAWN in text
    assert (out / "summary.txt").read_text() == text
    assert sorted(p.name for p in out.iterdir()) == sorted(["grades.csv", "report.html", "summary.json", "summary.txt",
                                                             pictures.SCORES_PNG, pictures.MISTAKES_PNG])


def test_histogram_bars_count_the_students(written):
    """Scores 20, 10, 15, 0, 5 of 20 in bins of 2: one student in each of the bins 0, 2, 5, 7 and 9 (the top one)."""
    out, _ = written
    pixels = read_png(out / pictures.SCORES_PNG).astype(int)
    bar = np.all(np.abs(pixels - [0x4C, 0x72, 0xB0]) < 8, axis=-1)       # the bars' blue
    columns = np.flatnonzero(bar.any(axis=0))
    runs = np.split(columns, np.flatnonzero(np.diff(columns) > 1) + 1)   # one run of columns per drawn bar
    assert len(runs) == 5
    heights = {int(bar[:, run].sum(axis=0).max()) for run in runs}
    assert len(heights) == 1, "every bar holds one student, so all have the same height"


def test_mistake_bars_are_ranked_like_the_summary(written):
    out, text = written
    summary = json.loads((out / "summary.json").read_text())
    assert [m["mistake"] for m in summary["mistakes"]][0] == "attention_no_scale"
    pixels = read_png(out / pictures.MISTAKES_PNG).astype(int)
    bar = np.all(np.abs(pixels - [0xDD, 0x84, 0x52]) < 8, axis=-1)      # the bars' orange
    rows = np.flatnonzero(bar.any(axis=1))
    runs = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    assert len(runs) == len(summary["mistakes"]) == 4
    lengths = [int(bar[run].sum(axis=1).max()) for run in runs]          # top to bottom
    assert lengths[0] == max(lengths) and lengths[0] > 2.5 * lengths[-1]  # 3 students, then 1 each
    assert all(abs(length - lengths[-1]) <= 2 for length in lengths[1:])


def test_labels_use_the_mistake_descriptions():
    from grader.mistakes import all_mistakes

    known = all_mistakes()
    label = pictures._mistake_label("attention_no_scale", known)
    assert label.splitlines() == ["attention_no_scale", "the scores were not divided by sqrt(d_k)"]
    assert pictures._mistake_label("made_up_mistake_id", known) == "made_up_mistake_id"
    longest = max(known, key=lambda k: len(known[k].looks_like))
    assert all(len(line) <= pictures.LABEL_CHARS for line in pictures._mistake_label(longest, known).splitlines()[1:])


def test_same_results_same_bytes(tmp_path, written):
    out, _ = written
    again = tmp_path / "again"
    again.mkdir()
    write_all(again, _class(), EXERCISES, {}, [])
    for name in (pictures.SCORES_PNG, pictures.MISTAKES_PNG):
        assert (again / name).read_bytes() == (out / name).read_bytes()


def test_empty_class_and_no_mistakes(tmp_path):
    pytest.importorskip("matplotlib")
    assert pictures.write_pictures(tmp_path, [], class_summary([], EXERCISES, {}, [])) == pictures.DRAWN
    assert read_png(tmp_path / pictures.SCORES_PNG).shape[:2] == (450, 800)
    perfect = [_student("ann", 4, [])]
    assert pictures.write_pictures(tmp_path, perfect, class_summary(perfect, EXERCISES, {}, [])) == pictures.DRAWN
    assert read_png(tmp_path / pictures.MISTAKES_PNG).shape[:2] == (700, 1000)


def test_without_matplotlib_one_line_says_how(tmp_path, no_matplotlib):
    (tmp_path / pictures.SCORES_PNG).write_bytes(b"stale picture of an earlier run")
    text = write_all(tmp_path, _class(), EXERCISES, {}, [])
    assert text.splitlines()[-1] == pictures.NO_MATPLOTLIB
    assert "pip install -e '.[plots]'" in pictures.NO_MATPLOTLIB  # the README's words
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "report.html", "summary.json", "summary.txt"]


def test_a_drawing_failure_costs_only_the_pictures(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")

    def broken(*args):
        raise RuntimeError("font cache unreadable")

    monkeypatch.setattr(pictures, "scores_figure", broken)
    text = write_all(tmp_path, _class(), EXERCISES, {}, [])
    assert text.splitlines()[-1] == pictures.FAILED.format(error="RuntimeError: font cache unreadable")
    assert (tmp_path / "summary.txt").read_text() == text and (tmp_path / "grades.csv").is_file()
