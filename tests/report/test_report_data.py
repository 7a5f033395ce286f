"""The report's data: bins, mistakes with their students, shared-mistake groups, standings, feedback."""
from __future__ import annotations

import pytest

from attnkit.report import data
from attnkit.report.data import GROUPS_KEY, Standing, build, mistake_rows, score_bins, shared_groups

from .classkit import EXERCISES, check, make_class, student, summarise


def test_score_bins_are_tenths_of_the_maximum_with_full_marks_in_the_last():
    bins = score_bins([0, 9.99, 10, 55, 99.9, 100], 100)
    assert [b.count for b in bins] == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
    assert (bins[0].low, bins[0].high, bins[-1].high) == (0, 10, 100)
    assert sum(b.count for b in score_bins([0, 0], 0)) == 2  # a course worth nothing still counts everyone


def test_a_mistake_counts_once_per_student_most_frequent_first_with_its_hint():
    results = [student("a", "mistake:softmax"), student("b", "mistake:softmax"), student("c", "mistake:attention")]
    rows = mistake_rows(results)
    assert [(r.mistake, r.students) for r in rows] == [("softmax_no_max_shift", ("a", "b")),
                                                       ("attention_no_scaling", ("c",))]
    assert rows[0].hint == "Subtract each row's maximum before exp."


def test_the_mistakes_agree_with_summary_json():
    results = make_class(120)
    summary = summarise(results)
    rows = build(results, summary, EXERCISES).mistakes
    assert [(r.exercise, r.mistake, len(r.students)) for r in rows][:len(summary["mistakes"])] == [
        (m["exercise"], m["mistake"], m["students"]) for m in summary["mistakes"]]


def test_exercise_rows_carry_the_summarys_figures_and_the_checks_most_often_failed():
    results = [student("a", "mistake:softmax"), student("b", "stubs"), student("c", "right")]
    report = build(results, summarise(results), EXERCISES)
    softmax = report.exercises[0]
    assert (softmax.exercise, softmax.full_marks, softmax.graded) == ("softmax", 1, 3)
    assert softmax.full_share == pytest.approx(1 / 3)
    assert [(f.title, f.students) for f in softmax.failed] == [("softmax check 1", 2), ("softmax check 2", 2),
                                                               ("softmax check 3", 2)]


def test_shared_groups_take_a_plain_list_and_leave_out_what_is_malformed():
    raw = [{"exercise": "softmax", "check": "test_rows", "students": 2, "members": ["x", "y"], "difference": "[0, 1]"},
           {"exercise": "attention", "check": "test_scale", "students": 3, "members": ["p", "q", "r"], "example": "q"},
           "not a group", {"exercise": "softmax", "students": "x"}]
    groups = shared_groups(raw)
    assert [(g.exercise, g.students, g.example) for g in groups] == [("attention", ("p", "q", "r"), "q"),
                                                                     ("softmax", ("x", "y"), "x")]
    assert shared_groups(None) == () and shared_groups({"a": 1}) == ()
    summary = summarise(make_class(5))
    assert build(make_class(5), summary | {GROUPS_KEY: raw}, EXERCISES).groups == groups


def test_standings():
    results = [student("full", "right"), student("half", "mistake:softmax"), student("low", "stubs"),
               student("refused", "refused")]
    report = build(results, summarise(results, errors={"crashed": "boom"}), EXERCISES)
    standings = {row.student: row.standing for row in report.rows}
    assert standings == {"full": Standing.FULL, "half": Standing.PASSING, "low": Standing.NEEDS_HELP,
                         "refused": Standing.PROBLEM, "crashed": Standing.PROBLEM}
    crashed = next(row for row in report.rows if row.student == "crashed")
    assert crashed.score is None and crashed.problems == ("not_graded",)
    assert [f.student for f in report.feedback] == ["full", "half", "low", "refused"]  # no result, no feedback


def test_feedback_is_what_the_student_reads_with_stub_exercises_in_one_line(monkeypatch):
    from attnkit.grade.gradescope_results import results_json

    mixed = student("m", "mistake:softmax")
    mixed.exercises[1] = student("x", "stubs").exercises[1]
    item = data.feedback(mixed)
    assert item.output == results_json(mixed)["output"]
    assert (item.passed, item.checks, item.untouched) == (1, 8, ("attention",))
    assert [e.name for e in item.failed] == ["softmax: softmax check 1", "softmax: softmax check 2",
                                             "softmax: softmax check 3"]
    assert item.failed[0].output == ("softmax(x) returned [1, 2], expected [1, 3]\n"
                                     "hint: Subtract each row's maximum before exp.")
    monkeypatch.setattr(data, "OUTPUT_CHARS", 10)
    long = student("l", "right")
    long.exercises[0].checks[0] = check("softmax", 0, "failed", message="x" * 50)
    assert data.feedback(long).failed[0].output == "x" * 10 + data.CUT
