"""The text ``attnkit check`` prints: a table, then the first failure of each exercise (every failure with --all).

An exercise whose checks stop in another exercise's module (it does not import, or it is not
implemented yet) gets one line naming that exercise instead of a block of identical failures.
"""
from __future__ import annotations

from grader import curriculum, printed
from grader.results import DIAGNOSED, HELD, NOT_IMPLEMENTED, CheckResult, ExerciseResult

GREEN, RED, YELLOW, DIM, RESET = "\033[32m", "\033[31m", "\033[33m", "\033[2m", "\033[0m"
BLOCKED = "{exercise}: blocked by exercise {sibling}, fix it first: {reason}"
WAITING = ("{names}: waiting for your predictions. Start with attnkit quiz --exercise {first} (every answer right "
           "opens an exercise), then check again.")


def render(results: list[ExerciseResult], color: bool = False, seconds: float | None = None,
           every: bool = False, waiting: tuple[str, ...] = ()) -> str:
    """The report; ``every``: every failing check of each exercise, not only the first; ``waiting``: the
    exercises the predict-first gate holds (in the table, unchecked, with one line on how to open them)."""
    paint = (lambda code, text: f"{code}{text}{RESET}") if color else (lambda code, text: text)
    failing = {r.exercise for r in results if r.first_failure is not None}
    width = max(len(name) for name in (*curriculum.ids(), "total"))  # the id column: the longest id fits
    lines = []
    rows = {r.exercise: r for r in results} | dict.fromkeys(waiting)
    for exercise in (e for e in curriculum.ids() if e in rows):
        result = rows[exercise]
        if result is None:
            lines.append(f"{paint(YELLOW, 'WAIT')}  {exercise:<{width}} {'-':>5}/{curriculum.get(exercise).points:<5g} "
                         "not checked yet: predict first")
            continue
        done = result.first_failure is None
        untouched = all(c.status == NOT_IMPLEMENTED for c in result.checks)
        mark = paint(GREEN, "PASS") if done else paint(YELLOW, "TODO") if untouched else paint(RED, "FAIL")
        lines.append(f"{mark}  {result.exercise:<{width}} {result.score:>5g}/{result.max_score:<5g} "
                     f"{result.passed}/{len(result.checks)} checks")
    total = sum(r.score for r in results)
    maximum = sum(r.max_score for r in results) + sum(curriculum.get(e).points for e in waiting)
    timing = f"  ({seconds:.2f} s)" if seconds is not None else ""
    lines.append(f"      {'total':<{width}} {total:>5g}/{maximum:<5g}{timing}")
    if waiting:
        lines.extend(["", WAITING.format(names=", ".join(waiting), first=waiting[0])])
    blocked = []
    for result in results:
        failure = result.first_failure
        own_output = [""] * bool(result.printed[0].strip()) + printed.block(result.exercise, *result.printed)
        if failure is None:
            lines.extend(own_output)
            continue
        exercise = curriculum.get(result.exercise)
        sibling = failure.blocked_by
        if sibling:
            reason = failure.message.splitlines()[0]
            blocked.append(BLOCKED.format(exercise=paint(RED, result.exercise), sibling=sibling, reason=reason))
            blocked.extend(own_output[1:])
            continue
        lines.append("")
        if all(c.status == NOT_IMPLEMENTED for c in result.checks):
            task = _task(exercise, failure)
            lines.append(f"{paint(YELLOW, result.exercise)}: not implemented yet. Start with task {task.number} "
                         f"({task.name}); stuck? attnkit hint {result.exercise}")
            lines.extend(own_output)
            continue
        shown = result.failures if every else [failure]
        for number, check in enumerate(shown):
            lines.extend([""] * bool(number) + _failure(exercise, check, paint))
        blockers = [d for d in exercise.depends_on if d in failing]
        if blockers:
            which = "which also fails its own checks" if len(blockers) == 1 else "which also fail their own checks"
            lines.append(f"  {result.exercise} uses your {', '.join(blockers)}, {which}: "
                         f"fix {'that' if len(blockers) == 1 else 'those'} first")
        task = _task(exercise, failure)
        lines.append(paint(DIM, f"  more help: attnkit hint {result.exercise} --task {task.number}"))
        hidden = sum(c is not failure and c.status != HELD and _said(c) != _said(failure)
                     for c in result.failures)  # a held check adds nothing to say
        if hidden and not every:
            lines.append(paint(DIM, f"  {hidden} more failing check{'s' if hidden != 1 else ''}: "
                                    f"attnkit check {result.exercise} --all"))
        lines.extend(own_output)
    if blocked:
        lines.extend([""] + blocked)
    return "\n".join(lines) + "\n"


def _said(check: CheckResult) -> str:
    """What a failure says without its diagnosis (only the failure shown is diagnosed: ``runner.shown_first``). The
    diagnosis is the last thing the runner adds to a diagnosed check's message; the words before it may be the
    student's own (an error message of theirs) and hold the same marker."""
    return check.message.rsplit(DIAGNOSED, 1)[0] if check.mistake else check.message


def _task(exercise, check: CheckResult):
    return next((t for t in exercise.tasks if t.number == check.task), exercise.tasks[0])


def _failure(exercise, check: CheckResult, paint) -> list[str]:
    task = _task(exercise, check)
    lines = [f"{paint(RED, check.exercise)}, task {task.number} ({task.name}): {check.title}"]
    lines.extend("  " + line for line in check.message.splitlines())
    if check.hint:
        lines.append(f"  hint: {check.hint}")
    return lines
