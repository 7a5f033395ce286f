"""attnkit grade's unnamed groups (attnkit.grade.unnamed): a class of 40 where 5 share a mistake no registered
mistake explains is listed once, with its exercise, check, count and an example; nobody else is grouped."""
import json

from attnkit.grade.summary import class_summary, summary_text
from grader.results import ExerciseResult, SubmissionResult
from grader.runner import run_exercise
from grader.sandbox.host.inprocess import in_process
from tests.grader.graderkit import copy_solutions

CORRECT = '''import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    x = x if x.dtype.kind == "f" else x.astype(np.float64)
    shift = np.max(x, axis=axis, keepdims=True)
    exps = np.exp(x - np.where(np.isfinite(shift), shift, 0))
    totals = exps.sum(axis=axis, keepdims=True)
    return np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)
'''
PLANTED = CORRECT.replace("exps = np.exp(x - np.where(np.isfinite(shift), shift, 0))",
                          "exps = np.exp(2 * (x - np.where(np.isfinite(shift), shift, 0)))")  # a hidden temperature
OWN = CORRECT.replace("return np.divide(", "return {offset} + np.divide(")               # a bug of one's own


def grade_class(tmp_path) -> list[SubmissionResult]:
    sources = [PLANTED] * 5 + [OWN.format(offset=0.01 * (k + 1)) for k in range(5)] + [CORRECT] * 30
    folder = copy_solutions(tmp_path)
    results, seen = [], {}
    for number, source in enumerate(sources):
        if source not in seen:  # one grading per distinct source; every student gets its result
            (folder / "softmax.py").write_text(source)
            seen[source] = run_exercise("softmax", lambda exercise: in_process(folder, exercise))
        results.append(SubmissionResult(f"student{number:02d}", [ExerciseResult("softmax", seen[source].checks)]))
    return results


def test_a_planted_unnamed_mistake_shared_by_five_of_forty_is_listed_and_nobody_else(tmp_path):
    results = grade_class(tmp_path)
    planted = [c for c in results[0].exercises[0].checks if c.status == "failed"]
    assert planted and not any(c.mistake for c in planted)  # no registered mistake names it
    summary = class_summary(results, ("softmax",), {}, [])
    unnamed = summary["unnamed"]
    assert [(u["exercise"], u["students"], u["example"]) for u in unnamed] == [("softmax", 5, "student00")]
    assert "test_softmax_matches_reference" in unnamed[0]["checks"]
    text = summary_text(summary)
    assert "no known mistake explains" in text and "5  softmax:" in text and "student05" not in text
    assert json.loads(json.dumps(summary))["unnamed"] == unnamed


def test_the_fingerprint_survives_the_students_record(tmp_path):
    results = grade_class(tmp_path)
    again = [SubmissionResult.from_dict(json.loads(json.dumps(r.to_dict()))) for r in results]
    summaries = [class_summary(graded, ("softmax",), {}, [])["unnamed"] for graded in (results, again)]
    assert summaries[0] == summaries[1] != []


def test_the_class_report_lists_the_group_with_its_students(tmp_path):
    from attnkit.report.data import build
    from attnkit.report.page import render

    results = grade_class(tmp_path)
    summary = class_summary(results, ("softmax",), {}, [])
    report = build(results, summary, ("softmax",))
    planted = tuple(f"student{k:02d}" for k in range(5))
    assert [(g.exercise, g.students) for g in report.groups] == [("softmax", planted)]
    page = render(report, ("softmax",))
    section = page.split('<section id="groups">', 1)[1].split("</section>", 1)[0]
    assert "none found" not in section and all(f"student{k:02d}" in section for k in range(5))
    assert "student05" not in section
