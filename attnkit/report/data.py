"""What ``report.html`` shows, as dataclasses: built from the graded results and their class summary.

The class figures (students, graded, means, full marks, problems) are read from the summary dict that
``summary.json`` is written from; what the summary does not hold (who made each mistake, the checks most
often failed, each student's feedback) comes from the same results, counted by the same rules.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from enum import Enum

from attnkit.grade.gradescope_results import output_text, test_entry
from grader.results import GRADER_ERROR, NOT_IMPLEMENTED, PASSED, SubmissionResult

BINS = 10              # score bins of a tenth of the maximum each (the last one holds full marks)
FAILED_CHECKS = 3      # per exercise, the checks most often failed
NEEDS_HELP = 0.5       # a student below this share of the maximum needs help
OUTPUT_CHARS = 1500    # of one check's message and hint in the report (a student's JSON holds all of it)
CUT = f" ... (cut at {OUTPUT_CHARS} characters; the student's JSON holds all of it)"
GROUPS_KEY = "unnamed"  # the summary's groups of students sharing an unnamed mistake (attnkit/grade/unnamed.py)


class Standing(str, Enum):
    """Where a student stands, as the table's filter names it."""

    FULL = "full marks"
    PASSING = "passing"
    NEEDS_HELP = "needs help"
    PROBLEM = "problem"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int


@dataclass(frozen=True)
class FailedCheck:
    title: str
    students: int


@dataclass(frozen=True)
class ExerciseRow:
    exercise: str
    mean: float
    max_score: float
    full_marks: int
    graded: int
    failed: tuple[FailedCheck, ...]

    @property
    def full_share(self) -> float:
        return self.full_marks / self.graded if self.graded else 0.0


@dataclass(frozen=True)
class MistakeRow:
    exercise: str
    mistake: str
    students: tuple[str, ...]
    hint: str


@dataclass(frozen=True)
class SharedGroup:
    """Students who share one unnamed mistake: same check, same failing call, same wrong values."""

    exercise: str
    check: str
    students: tuple[str, ...]
    example: str
    first_difference: str


@dataclass(frozen=True)
class StudentRow:
    student: str
    score: float | None          # None: the grader failed on this student
    max_score: float
    exercises: tuple[float | None, ...]
    mistakes: tuple[str, ...]
    problems: tuple[str, ...]
    standing: Standing


@dataclass(frozen=True)
class FailedEntry:
    """One check that did not pass, as the student reads it (name, points, message and hint)."""

    name: str
    score: float
    max_score: float
    output: str


@dataclass(frozen=True)
class Feedback:
    """A student's feedback as the student sees it (the text and entries of their Gradescope results): the
    checks that did not pass, except that an exercise left as a stub is one line (``untouched``)."""

    student: str
    output: str
    passed: int
    checks: int
    failed: tuple[FailedEntry, ...]
    untouched: tuple[str, ...]


@dataclass(frozen=True)
class ClassReport:
    students: int
    graded: int
    mean_score: float
    max_score: float
    bins: tuple[Bin, ...]
    exercises: tuple[ExerciseRow, ...]
    mistakes: tuple[MistakeRow, ...]
    groups: tuple[SharedGroup, ...]
    problems: tuple[dict, ...]
    grader_errors: tuple[dict, ...]
    warnings: tuple[str, ...]
    rows: tuple[StudentRow, ...]
    feedback: tuple[Feedback, ...]


def score_bins(scores: list[float], max_score: float, bins: int = BINS) -> tuple[Bin, ...]:
    """``bins`` equal bins from 0 to ``max_score``; a score lands in ``[low, high)``, full marks in the last."""
    width = max_score / bins if max_score > 0 else 1.0
    counts = [0] * bins
    for score in scores:
        counts[min(max(int(score / width), 0), bins - 1)] += 1
    return tuple(Bin(i * width, (i + 1) * width, count) for i, count in enumerate(counts))


def mistake_rows(results: list[SubmissionResult]) -> tuple[MistakeRow, ...]:
    """Every diagnosed mistake, counted once per student (as in summary.json), most frequent first."""
    students, hints = defaultdict(set), {}
    for result in results:
        for exercise in result.exercises:
            for check in exercise.checks:
                if check.mistake:
                    key = (check.exercise, check.mistake)
                    students[key].add(result.student)
                    hints.setdefault(key, check.hint)
    ranked = sorted(students, key=lambda key: (-len(students[key]), key))
    return tuple(MistakeRow(ex, m, tuple(sorted(students[(ex, m)])), hints[(ex, m)]) for ex, m in ranked)


def exercise_rows(results: list[SubmissionResult], summary: dict) -> tuple[ExerciseRow, ...]:
    rows = []
    for entry in summary["exercises"]:
        done = [e for r in results for e in r.exercises if e.exercise == entry["exercise"]]
        failed = Counter(c.title for e in done for c in e.checks if c.status not in (PASSED, GRADER_ERROR))
        top = sorted(failed.items(), key=lambda item: (-item[1], item[0]))[:FAILED_CHECKS]
        rows.append(ExerciseRow(entry["exercise"], entry["mean"], entry["max_score"], entry["full_marks"],
                                len(done), tuple(FailedCheck(title, n) for title, n in top)))
    return tuple(rows)


def shared_groups(raw) -> tuple[SharedGroup, ...]:
    """The summary's groups of students sharing an unnamed mistake; anything malformed is left out."""
    groups = []
    for item in raw if isinstance(raw, list) else ():
        if not isinstance(item, dict) or not isinstance(item.get("members"), list):
            continue
        students = tuple(str(s) for s in item["members"])
        groups.append(SharedGroup(str(item.get("exercise", "")), str(item.get("check", "")), students,
                                  str(item.get("example", students[0] if students else "")),
                                  str(item.get("difference", ""))))
    return tuple(sorted(groups, key=lambda g: (-len(g.students), g.exercise, g.check)))


def student_row(result: SubmissionResult | None, student: str, exercise_ids, problems: list[dict]) -> StudentRow:
    kinds = tuple(p["kind"] for p in problems)
    if result is None:
        return StudentRow(student, None, 0.0, (None,) * len(exercise_ids), (), kinds, Standing.PROBLEM)
    scores = {e.exercise: e.score for e in result.exercises}
    score, max_score = sum(scores.values()), result.max_score
    mistakes = tuple(sorted({c.mistake for e in result.exercises for c in e.checks if c.mistake}))
    if kinds:
        standing = Standing.PROBLEM
    elif max_score > 0 and score >= max_score:
        standing = Standing.FULL
    elif score < NEEDS_HELP * max_score:
        standing = Standing.NEEDS_HELP
    else:
        standing = Standing.PASSING
    return StudentRow(student, score, max_score, tuple(scores.get(ex) for ex in exercise_ids), mistakes, kinds,
                      standing)


def feedback(result: SubmissionResult) -> Feedback:
    failed, untouched = [], []
    for i, exercise in enumerate(result.exercises, start=1):
        if exercise.checks and all(c.status == NOT_IMPLEMENTED for c in exercise.checks):
            untouched.append(exercise.exercise)
            continue
        for j, check in enumerate(exercise.checks, start=1):
            if check.status != PASSED:
                entry = test_entry(i, j, check)
                output = entry["output"]
                if len(output) > OUTPUT_CHARS:
                    output = output[:OUTPUT_CHARS] + CUT
                failed.append(FailedEntry(entry["name"], check.points, check.max_points, output))
    checks = [c for e in result.exercises for c in e.checks]
    return Feedback(result.student, output_text(result), sum(c.status == PASSED for c in checks),
                    len(checks), tuple(failed), tuple(untouched))


def build(results: list[SubmissionResult], summary: dict, exercise_ids: tuple[str, ...]) -> ClassReport:
    """The report of ``results``, whose class summary (:func:`attnkit.grade.summary.class_summary`) is ``summary``."""
    by_student = {r.student: r for r in results}
    problems = defaultdict(list)
    for row in summary["problems"]:
        problems[row["student"]].append(row)
    names = sorted(set(by_student) | set(problems))
    rows = tuple(student_row(by_student.get(s), s, exercise_ids, problems[s]) for s in names)
    return ClassReport(
        students=summary["students"], graded=summary["graded"], mean_score=summary["mean_score"],
        max_score=summary["max_score"], bins=score_bins([r.score for r in results], summary["max_score"]),
        exercises=exercise_rows(results, summary), mistakes=mistake_rows(results),
        groups=shared_groups(summary.get(GROUPS_KEY)), problems=tuple(summary["problems"]),
        grader_errors=tuple(summary["grader_errors"]), warnings=tuple(summary["warnings"]), rows=rows,
        feedback=tuple(feedback(by_student[s]) for s in names if s in by_student))
