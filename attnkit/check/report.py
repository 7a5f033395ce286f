"""The text ``attnkit check`` prints: a table, then the first failure of each exercise."""
from __future__ import annotations

from grader import curriculum
from grader.results import NOT_IMPLEMENTED, ExerciseResult

GREEN, RED, YELLOW, DIM, RESET = "\033[32m", "\033[31m", "\033[33m", "\033[2m", "\033[0m"


def render(results: list[ExerciseResult], color: bool = False, seconds: float | None = None) -> str:
    paint = (lambda code, text: f"{code}{text}{RESET}") if color else (lambda code, text: text)
    failing = {r.exercise for r in results if r.first_failure is not None}
    lines = []
    for result in results:
        done = result.first_failure is None
        untouched = all(c.status == NOT_IMPLEMENTED for c in result.checks)
        mark = paint(GREEN, "PASS") if done else paint(YELLOW, "TODO") if untouched else paint(RED, "FAIL")
        lines.append(f"{mark}  {result.exercise:<16} {result.score:>5g}/{result.max_score:<5g} "
                     f"{result.passed}/{len(result.checks)} checks")
    total = sum(r.score for r in results)
    maximum = sum(r.max_score for r in results)
    lines.append(f"      {'total':<16} {total:>5g}/{maximum:<5g}" + (f"  ({seconds:.2f} s)" if seconds is not None else ""))
    for result in results:
        failure = result.first_failure
        if failure is None:
            continue
        exercise = curriculum.get(result.exercise)
        task = next((t for t in exercise.tasks if t.number == failure.task), exercise.tasks[0])
        lines.append("")
        if all(c.status == NOT_IMPLEMENTED for c in result.checks):
            lines.append(f"{paint(YELLOW, result.exercise)}: not implemented yet. Start with task {task.number} "
                         f"({task.name}); stuck? attnkit hint {result.exercise}")
            continue
        lines.append(f"{paint(RED, result.exercise)}, task {task.number} ({task.name}): {failure.title}")
        lines.extend("  " + line for line in failure.message.splitlines())
        if failure.hint:
            lines.append(f"  hint: {failure.hint}")
        blockers = [d for d in exercise.depends_on if d in failing]
        if blockers:
            which = "which also fails its own checks" if len(blockers) == 1 else "which also fail their own checks"
            lines.append(f"  {result.exercise} uses your {', '.join(blockers)}, {which}: "
                         f"fix {'that' if len(blockers) == 1 else 'those'} first")
        lines.append(paint(DIM, f"  more help: attnkit hint {result.exercise} --task {task.number}"))
    return "\n".join(lines) + "\n"
