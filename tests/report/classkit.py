"""A synthetic graded class for the report's tests: SubmissionResults built directly, no grading."""
from __future__ import annotations

import random

from attnkit.grade.summary import class_summary
from grader.results import FAILED, NOT_IMPLEMENTED, PASSED, CheckResult, ExerciseResult, SubmissionResult

EXERCISES = ("softmax", "attention")
CHECKS = 4  # per exercise, 2.5 points each
MISTAKES = {"softmax": ("softmax_no_max_shift", "Subtract each row's maximum before exp."),
            "attention": ("attention_no_scaling", "Divide the scores by the square root of d_k.")}


def check(exercise: str, index: int, status, mistake: str = "", message: str = "") -> CheckResult:
    hint = MISTAKES[exercise][1] if mistake else ""
    return CheckResult(exercise, f"test_{exercise}_{index}", f"{exercise} check {index}", 1,
                       2.5 if status == PASSED else 0.0, 2.5, status, message, mistake, hint)


def student(name: str, kind: str) -> SubmissionResult:
    """kind: 'right', 'mistake:<exercise>', 'stubs', 'refused'."""
    if kind == "refused":
        return SubmissionResult(name, [ExerciseResult(ex, [check(ex, i, FAILED, message="not graded")
                                                          for i in range(CHECKS)]) for ex in EXERCISES],
                                problem="symlink refused")
    exercises = []
    for ex in EXERCISES:
        if kind == "stubs":
            checks = [check(ex, i, NOT_IMPLEMENTED, message=f"{ex}() is not implemented yet") for i in range(CHECKS)]
        elif kind == f"mistake:{ex}":
            checks = [check(ex, 0, PASSED)] + [
                check(ex, i, FAILED, MISTAKES[ex][0], f"{ex}(x) returned [1, 2], expected [1, 3]")
                for i in range(1, CHECKS)]
        else:
            checks = [check(ex, i, PASSED) for i in range(CHECKS)]
        exercises.append(ExerciseResult(ex, checks))
    return SubmissionResult(name, exercises)


def make_class(size: int, seed: int = 0) -> list[SubmissionResult]:
    rng = random.Random(seed)
    kinds = ["right"] * 6 + ["mistake:softmax"] * 2 + ["mistake:attention", "stubs"]
    return [student(f"s{index:03d}", rng.choice(kinds)) for index in range(size)]


def summarise(results, errors=None, warnings=()):
    return class_summary(results, EXERCISES, dict(errors or {}), list(warnings))
