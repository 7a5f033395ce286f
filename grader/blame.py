"""Who is at fault when an exercise's code raises inside another exercise's module, or gives a wrong discrete value.

A check of multihead that stops in ``masking.py`` first blames masking ("fix that exercise first").
That holds only while masking fails its own checks: when masking passes them, it was called with
arguments it is not meant to take, so the caller is at fault. :func:`blame_callers` rewrites those
results: the note names the caller and the function it called from, and the caller's task hint
replaces the blame (a diagnosed mistake's own hint stays).
"""
from __future__ import annotations

from . import curriculum
from .results import DIAGNOSED, ExerciseResult
from .sandbox import sibling_note

CALLER_AT_FAULT = ("\n  the error came from your {module}.py, but exercise {sibling} passes its own checks: "
                   "the arguments it got come from your {function} (task {task} of {exercise})")
UPSTREAM_FAILS = ("\n  {exercise} uses your {sibling}, which fails its own checks: fix that first "
                  "(attnkit check {sibling})")


def blockers(results: list[ExerciseResult]) -> set[str]:
    """The exercises whose modules stopped a check of another exercise."""
    return {check.blocked_by for result in results for check in result.checks if check.blocked_by}


def blame_callers(results: list[ExerciseResult], passing: set[str]) -> None:
    """Put the fault on the caller of every check that stopped in an exercise of ``passing`` (exercises that
    passed all their own checks in the same run)."""
    for result in results:
        exercise = curriculum.get(result.exercise)
        for check in result.checks:
            if not check.blocked_by or check.blocked_by not in passing:
                continue
            module = curriculum.get(check.blocked_by).id
            task = next((t for t in exercise.tasks if t.number == check.task), exercise.tasks[0])
            note = CALLER_AT_FAULT.format(module=module, sibling=check.blocked_by, function=task.name,
                                          task=task.number, exercise=exercise.id)
            for blamed in (sibling_note(module), sibling_note(module, not_implemented=True)):
                if check.message.endswith(blamed) or blamed + "\n" in check.message:
                    check.message = check.message.replace(blamed, note, 1)
                    break
            else:
                check.message += note
            check.blocked_by = ""
            if not check.hint and task.hints:
                check.hint = task.hints[0]


def cascade_suspects(results: list[ExerciseResult]) -> set[str]:
    """The exercises whose verdicts decide whether a diagnosis of a discrete value stands (:func:`unname_cascades`):
    those that the exercises holding one build on."""
    return {needed for result in results if any(c.discrete and c.mistake for c in result.checks)
            for needed in curriculum.prerequisites(result.exercise)}


def unname_cascades(results: list[ExerciseResult], failing: set[str]) -> None:
    """Under ``attnkit check`` (the student's own modules answer each other): a wrong discrete value (token ids) in
    an exercise that builds on one of ``failing`` (exercises that fail their own checks in the same run) names no
    mistake. A few integers cannot tell one mistake upstream from another: the mutants of the exercises sampling
    builds on were named as another, unrelated mistake in 28 of the 60 sampling checks they failed. The mistake is
    named in the exercise where it is, and the report says to fix that one first. Real numbers keep their diagnosis:
    they tell mistakes apart, and name the upstream concept where the student can see it break."""
    checked = {result.exercise for result in results}
    for result in results:
        upstream = [e for e in curriculum.prerequisites(result.exercise) if e in failing]  # in path order
        if not upstream:
            continue
        for check in result.checks:
            if check.discrete and check.mistake:
                check.message = check.message.rsplit(DIAGNOSED, 1)[0]
                check.mistake = check.hint = ""
                if checked.isdisjoint(upstream):  # the report names only the failing exercises it shows
                    check.message += UPSTREAM_FAILS.format(exercise=result.exercise, sibling=upstream[0])
