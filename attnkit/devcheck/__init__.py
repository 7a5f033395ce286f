"""``python -m attnkit.devcheck``: for every exercise of the curriculum, name whatever it is missing.

Like rustlings' ``dev check``: an exercise is complete when it meets every rule of
:data:`attnkit.devcheck.rules.RULES` (each stated in docs/adding-an-exercise.md); the course, when no file of
the exercises' folders is left unclaimed. ``python -m attnkit.devcheck [ID ...]`` judges those exercises only;
``--mutants`` then checks every classic mistake's mutant too (``attnkit.devcheck.mutants``: slow).

That every solution passes its checks and every untouched stub fails them is tested by
``tests/grader/test_checks_reference.py``; that every mistake is caught, by the mistakes' end-to-end tests.
"""
from __future__ import annotations

import sys

from .course import Course, Problem, repository


def render(problems: list[Problem], exercise_ids: tuple[str, ...]) -> str:
    """Rustlings-style: each exercise ``ok`` or what it is missing, then the course's problems and a summary."""
    width = max(map(len, exercise_ids))
    lines = []
    for exercise in exercise_ids:
        own = [problem for problem in problems if problem.exercise == exercise]
        lines.append(f"  {exercise:<{width}}  " + ("ok" if not own else "missing:"))
        lines.extend(f"  {'':<{width}}    - {problem}" for problem in own)
    course = [problem for problem in problems if problem.exercise is None]
    if course:
        lines.append("  the course:")
        lines.extend(f"    - {problem}" for problem in course)
    incomplete = len({problem.exercise for problem in problems if problem.exercise is not None})
    lines.append(f"{len(exercise_ids) - incomplete} of {len(exercise_ids)} exercises complete"
                 + (f"; {incomplete} missing something (see docs/adding-an-exercise.md)" if incomplete else "")
                 + (f"; {len(course)} problem(s) of the course" if course else ""))
    lines.append("solutions pass and stubs fail their checks: tests/grader/test_checks_reference.py")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(argv or ())
    if argv[:1] == ["--docs"] and argv[1:] in ([], ["--write"]):
        return docs_main(write="--write" in argv)
    mutants = argv[:1] == ["--mutants"]
    argv = argv[1:] if mutants else argv
    if any(arg.startswith("-") for arg in argv):
        print("usage: python -m attnkit.devcheck [--mutants] [EXERCISE ...] | --docs [--write]", file=sys.stderr)
        return 2
    from grader.curriculum import CurriculumError

    try:
        course = Course()
    except CurriculumError as error:
        print(f"python -m attnkit.devcheck: {error}", file=sys.stderr)
        return 1
    known = tuple(exercise.id for exercise in course.exercises)
    unknown = [name for name in argv if name not in known]
    if unknown:
        print(f"unknown exercise(s) {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    chosen = tuple(e for e in known if e in argv) or known
    problems = course.problems(chosen if argv else None)
    if mutants and not problems:
        from .mutants import undetected

        problems = undetected(course.root, chosen)
    print(render(problems, chosen))
    return 1 if problems else 0


def docs_main(write: bool = False) -> int:
    """``--docs``: the numbers the docs state about the kit that are stale; ``--write`` puts the kit's in."""
    from . import docs

    found = docs.stale(repository())
    if write:
        fixed = docs.write(repository(), found)
        print(f"rewrote {fixed} number{'s' if fixed != 1 else ''}")
        found = docs.stale(repository())
    for claim, _, _ in found:
        print(claim)
    if not found:
        print("every number the docs state about the kit matches it")
    return 1 if found else 0
