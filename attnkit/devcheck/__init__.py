"""``python -m attnkit.devcheck``: for every exercise of the curriculum, name whatever it is missing.

Like rustlings' ``dev check``: an exercise is complete when it has

* a curriculum entry with a title, a source, its points, an explanation and at least
  :data:`MIN_HINTS` hints per task (``grader/curriculum.yaml``);
* a solution module with at least one solution region (``solutions/<module>.py``);
* a stub generated from it and in sync (``exercises/<module>.py``; ``python -m attnkit.release.stubs --write``);
* checks for every task whose points add up to the curriculum's (``grader/checks/check_<id>.py``);
* at least one classic mistake (``grader/mistakes/<id>.py``);
* a quiz bank with at least :data:`MIN_QUESTIONS` valid questions, :data:`MIN_PREDICT` of them
  "predict, then run" (``quizzes/<id>.yaml``).

That every solution passes its checks and every untouched stub fails them is tested by
``tests/grader/test_checks_reference.py``; that every mistake is caught, by the mistakes' end-to-end tests.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

MIN_HINTS = 2
MIN_QUESTIONS = 8
MIN_PREDICT = 3
REGION = re.compile(r"^\s*### BEGIN SOLUTION\s+\S", re.MULTILINE)


@dataclass
class Report:
    exercise: str
    missing: list[str] = field(default_factory=list)


def repository() -> Path:
    """The project folder the imported ``grader`` package belongs to."""
    import grader

    return Path(grader.__file__).resolve().parents[1]


def check_exercise(exercise_id: str, root: Path) -> Report:
    """What one exercise is missing (an empty ``missing`` list when nothing)."""
    from grader import curriculum

    exercise = curriculum.get(exercise_id)
    report = Report(exercise_id)
    _entry(exercise, report)
    solution = root / "solutions" / f"{exercise.module}.py"
    if not solution.is_file() or not REGION.search(solution.read_text(encoding="utf-8")):
        report.missing.append(f"solution module {_rel(solution, root)} with a '### BEGIN SOLUTION <todo>' region")
    else:
        _stub(solution, root / "exercises" / solution.name, root, report)
    _checks(exercise, root, report)
    _mistakes(exercise, root, report)
    _quiz_bank(exercise, root, report)
    return report


def _rel(path: Path, root: Path) -> str:
    return str(path.relative_to(root))


def _entry(exercise, report: Report) -> None:
    where = "grader/curriculum.yaml"
    if not (exercise.title and exercise.source):
        report.missing.append(f"a title and a source in its entry of {where}")
    if not exercise.points > 0:
        report.missing.append(f"its points in {where}")
    if not (exercise.explanation.summary and exercise.explanation.quotes):
        report.missing.append(f"an explanation (summary and quotes) in {where}")
    for task in exercise.tasks:
        if len(task.hints) < MIN_HINTS:
            report.missing.append(f"hints for task {task.number} in {where} (has {len(task.hints)}, "
                                  f"at least {MIN_HINTS})")


def _stub(solution: Path, stub: Path, root: Path, report: Report) -> None:
    from attnkit.release.stubs import MarkerError, make_stub

    try:
        expected = make_stub(solution.read_text(encoding="utf-8"), str(solution))
    except MarkerError as error:
        report.missing.append(f"solution markers that pair up ({error})")
        return
    if not stub.is_file() or stub.read_text(encoding="utf-8") != expected:
        report.missing.append(f"the stub {_rel(stub, root)} in sync with its solution "
                              "(python -m attnkit.release.stubs --write)")


def _checks(exercise, root: Path, report: Report) -> None:
    from grader.runner import check_module_name, discover

    path = root / "grader" / "checks" / f"check_{exercise.id}.py"
    if not path.is_file():
        report.missing.append(f"checks {_rel(path, root)}")
        return
    try:
        specs = discover(exercise.id)
    except (ImportError, TypeError) as error:
        report.missing.append(f"checks that load ({check_module_name(exercise.id)}: {error})")
        return
    tasks = {task.number for task in exercise.tasks}
    for number in sorted(tasks - {spec.task for spec in specs}):
        report.missing.append(f"a check for task {number} in {_rel(path, root)}")
    for spec in specs:
        if spec.task not in tasks:
            report.missing.append(f"task {spec.task} (named by {spec.name}) in grader/curriculum.yaml")
    total = sum(spec.points for spec in specs)
    if specs and total != exercise.points:
        report.missing.append(f"checks' points adding up to the curriculum's {exercise.points:g} (they add up to "
                              f"{total:g})")


def _mistakes(exercise, root: Path, report: Report) -> None:
    from grader import mistakes

    path = root / "grader" / "mistakes" / f"{exercise.id}.py"
    if not path.is_file() or not mistakes.of_exercise(exercise.id):
        report.missing.append(f"at least one classic mistake in {_rel(path, root)}")


def _quiz_bank(exercise, root: Path, report: Report) -> None:
    from attnkit.quiz.bank import read_file

    path = root / "quizzes" / f"{exercise.id}.yaml"
    if not path.is_file():
        report.missing.append(f"a quiz bank {_rel(path, root)} (at least {MIN_QUESTIONS} questions)")
        return
    questions, problems = read_file(path)
    if problems:
        report.missing.append(f"a valid quiz bank ({len(problems)} problems; run: attnkit quiz validate)")
    if len(questions) < MIN_QUESTIONS:
        report.missing.append(f"questions in {_rel(path, root)} (has {len(questions)}, at least {MIN_QUESTIONS})")
    predict = sum(question.predict for question in questions)
    if predict < MIN_PREDICT:
        report.missing.append(f"'predict: true' questions in {_rel(path, root)} "
                              f"(has {predict}, at least {MIN_PREDICT})")


def check_all(root: Path | None = None) -> list[Report]:
    """A report for every exercise of the curriculum, in learning-path order."""
    from grader import curriculum

    root = repository() if root is None else root
    return [check_exercise(exercise_id, root) for exercise_id in curriculum.ids()]


def render(reports: list[Report]) -> str:
    width = max(len(report.exercise) for report in reports)
    lines = []
    for report in reports:
        if not report.missing:
            lines.append(f"  {report.exercise:<{width}}  ok")
            continue
        lines.append(f"  {report.exercise:<{width}}  missing:")
        lines.extend(f"  {'':<{width}}    - {item}" for item in report.missing)
    incomplete = sum(bool(report.missing) for report in reports)
    lines.append(f"{len(reports) - incomplete} of {len(reports)} exercises complete"
                 + (f"; {incomplete} missing something (see docs/adding-an-exercise.md)" if incomplete else ""))
    lines.append("solutions pass and stubs fail their checks: tests/grader/test_checks_reference.py")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    if argv in (["--docs"], ["--docs", "--write"]):
        return docs_main(write="--write" in argv)
    if argv:
        print("usage: python -m attnkit.devcheck [--docs [--write]]", file=sys.stderr)
        return 2
    reports = check_all()
    print(render(reports))
    return 1 if any(report.missing for report in reports) else 0


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
