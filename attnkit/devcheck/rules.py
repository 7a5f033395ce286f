"""The rules a complete exercise meets, as data: each a :class:`Rule` with the sentence that states it for a
contributor and a function returning the problems it finds (``python -m attnkit.devcheck`` lists them,
``tests/curriculum/test_course.py`` asserts there are none, ``docs/adding-an-exercise.md`` states every sentence).

A rule of an exercise gets that exercise's :class:`~attnkit.devcheck.course.Files`; a rule of the course gets the
project folder. Each returns ``(file, what is wrong)`` pairs, the file relative to the project folder.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

MIN_HINTS = 2
MIN_CHECKS, MAX_CHECKS = 4, 10
MIN_QUESTIONS = 8
MIN_PREDICT, MAX_PREDICT = 2, 3
CURRICULUM = "grader/curriculum.yaml"
REGION = re.compile(r"^\s*### BEGIN SOLUTION\s+\S", re.MULTILINE)
# Files of the exercises' folders that belong to no exercise: the shared helpers of each folder.
SHARED = {"solutions": {"__init__.py"}, "exercises": {"__init__.py"},
          "grader/checks": {"__init__.py", "common.py", "gpt2_params.py", "gpt_model.py", "marks.py", "tiny_model.py",
                            "secret.py", "trees.py", "untouched.py"},
          "grader/mistakes": {"__init__.py", "anchors.py", "generic.py", "model.py"},
          "quizzes": {"__init__.py", "concepts.yaml", "schema.json"}}
OWN = {"solutions": "{id}.py", "exercises": "{id}.py", "grader/checks": "check_{id}.py",
       "grader/mistakes": "{id}.py", "quizzes": "{id}.yaml"}

Found = list[tuple[str, str]]


class Scope(enum.Enum):
    EXERCISE = "exercise"
    COURSE = "course"


@dataclass(frozen=True)
class Rule:
    id: str
    statement: str                      # the rule, for a contributor (docs/adding-an-exercise.md states it)
    find: Callable[..., Found]          # the problems it finds: (file, what is wrong)
    scope: Scope = Scope.EXERCISE


def _entry(files) -> Found:
    exercise, found = files.exercise, []
    if not exercise.source:
        found.append((CURRICULUM, "its entry has no source"))
    if not exercise.explanation.quotes:
        found.append((CURRICULUM, "its entry's explanation has no quotes"))
    return found


def _hints(files) -> Found:
    return [(CURRICULUM, f"task {task.number} has {len(task.hints)} hint(s), at least {MIN_HINTS} wanted")
            for task in files.exercise.tasks if len(task.hints) < MIN_HINTS]


def _solution(files) -> Found:
    path = files.solution
    if not path.is_file() or not REGION.search(path.read_text(encoding="utf-8")):
        return [(files.rel(path), "no solution module with a '### BEGIN SOLUTION <todo>' region")]
    return []


def _stub(files) -> Found:
    from attnkit.release.stubs import MarkerError, make_stub

    if not files.solution.is_file():
        return []
    try:
        expected = make_stub(files.solution.read_text(encoding="utf-8"), files.rel(files.solution))
    except MarkerError as error:
        return [(files.rel(files.solution), f"solution markers that do not pair up ({error})")]
    if not files.stub.is_file() or files.stub.read_text(encoding="utf-8") != expected:
        return [(files.rel(files.stub), "the stub is missing or out of sync with its solution "
                                        "(run: python -m attnkit.release.stubs --write)")]
    return []


def _checks_load(files) -> Found:
    if files.specs is None:
        return [(files.rel(files.checks), files.checks_error)]
    return []


def _checks_cover_tasks(files) -> Found:
    if not files.specs:
        return []
    tasks = {task.number for task in files.exercise.tasks}
    found = [(files.rel(files.checks), f"no check for task {n}") for n in sorted(tasks - {s.task for s in files.specs})]
    found += [(files.rel(files.checks), f"{spec.name} names task {spec.task}, which {CURRICULUM} does not list")
              for spec in files.specs if spec.task not in tasks]
    return found


def _check_count(files) -> Found:
    count = len(files.specs or ())
    if files.specs is not None and not MIN_CHECKS <= count <= MAX_CHECKS:
        return [(files.rel(files.checks), f"{count} checks, {MIN_CHECKS} to {MAX_CHECKS} wanted")]
    return []


def _check_titles(files) -> Found:
    import inspect

    return [(files.rel(files.checks), f"{spec.name} has no docstring whose first line is its title")
            for spec in files.specs or () if not (inspect.getdoc(spec.function) or "").strip()]


def _dtype_check(files) -> Found:
    named = [spec.name for spec in files.specs or () if spec.name.endswith("_dtypes")]
    wanted = f"test_{files.exercise.id}_dtypes"
    if files.specs is not None and named != [wanted]:
        return [(files.rel(files.checks), f"one dtype check named {wanted} wanted, found {named or 'none'}")]
    return []


def _points(files) -> Found:
    from grader.curriculum import checks_points

    found = []
    if files.exercise.recorded_points is not None:
        found.append((CURRICULUM, "its entry states points: they are its checks' (only a built copy records them)"))
    total = sum(spec.points for spec in files.specs or ())
    if files.specs and total != checks_points(files.exercise.id):
        found.append((files.rel(files.checks), f"its checks add up to {total:g} points, but reading their "
                                               f"@check(points=...) gives {checks_points(files.exercise.id):g}: write "
                                               "each as @check(points=<number>, ...) on a test_ function"))
    return found


def _mistakes(files) -> Found:
    if files.mistakes is None:
        return [(files.rel(files.mistakes_file), files.mistakes_error)]
    if not files.mistakes:
        return [(files.rel(files.mistakes_file), "no classic mistake")]
    return []


def _mistake_texts(files) -> Found:
    where = files.rel(files.mistakes_file)
    found = []
    for mistake in files.mistakes or ():
        if not mistake.looks_like or mistake.looks_like.endswith("."):
            found.append((where, f"{mistake.id}: looks_like must say what went wrong, without a final full stop"))
        if not mistake.hint.strip():
            found.append((where, f"{mistake.id}: no hint"))
        if not mistake.mutant_patch:
            found.append((where, f"{mistake.id}: no patch or mutant, so it cannot be tested end to end"))
    return found


def _mistakes_reviewed(files) -> Found:
    if files.all_questions is None:
        return []
    tagged = {mistake for question in files.all_questions for mistake in question.mistakes}
    return [(files.rel(files.quiz), f"no question lists `mistakes: [{mistake.id}]` (for attnkit quiz --review)")
            for mistake in files.mistakes or () if mistake.id not in tagged]


def _quiz_bank(files) -> Found:
    if not files.quiz.is_file():
        return [(files.rel(files.quiz), "no quiz bank")]
    if files.questions is None:
        return []
    if files.quiz_problems:
        return [(files.rel(files.quiz), f"{len(files.quiz_problems)} problem(s) (run: attnkit quiz validate)")]
    return []


def _quiz_size(files) -> Found:
    questions = files.questions
    if questions is None:
        return []
    predict = sum(question.predict for question in questions)
    found = []
    if files.quiz.is_file() and len(questions) < MIN_QUESTIONS:
        found.append((files.rel(files.quiz), f"{len(questions)} questions, at least {MIN_QUESTIONS} wanted"))
    if files.quiz.is_file() and not MIN_PREDICT <= predict <= MAX_PREDICT:
        found.append((files.rel(files.quiz), f"{predict} 'predict: true' questions, {MIN_PREDICT} to {MAX_PREDICT} "
                                             "wanted"))
    return found


def _unclaimed(root: Path, ids: tuple[str, ...]) -> Found:
    found = []
    for folder, pattern in OWN.items():
        claimed = SHARED[folder] | {pattern.format(id=exercise) for exercise in ids}
        for path in sorted((root / folder).glob("*")):
            if path.is_file() and path.suffix in (".py", ".yaml", ".json") and path.name not in claimed:
                found.append((f"{folder}/{path.name}", f"no exercise of {CURRICULUM} claims it (an exercise's file "
                                                       f"is {folder}/{pattern}; a shared one is listed in "
                                                       "attnkit/devcheck/rules.py)"))
    return found


RULES = (
    Rule("entry", f"Its entry in `{CURRICULUM}` has a `source` and explanation `quotes` (the file's schema, "
                  "`grader/curriculum.schema.json`, checked at every load, lets a student's copy leave them out).",
         _entry),
    Rule("hints", f"Each task of its entry has at least {MIN_HINTS} hints.", _hints),
    Rule("solution", "`solutions/<id>.py` holds at least one `### BEGIN SOLUTION <todo text>` region.", _solution),
    Rule("stub", "`exercises/<id>.py` is the stub generated from its solution "
                 "(`python -m attnkit.release.stubs --write`).", _stub),
    Rule("checks_load", "`grader/checks/check_<id>.py` loads, and each `test_` function in it has a `@check(...)`.",
         _checks_load),
    Rule("checks_cover_tasks", "Every task has at least one check, and every check names a task of the entry.",
         _checks_cover_tasks),
    Rule("check_count", f"It has {MIN_CHECKS} to {MAX_CHECKS} checks.", _check_count),
    Rule("check_titles", "Every check has a docstring; its first line is the check's title.", _check_titles),
    Rule("dtype_check", "Exactly one check scores the dtypes, named `test_<id>_dtypes`.", _dtype_check),
    Rule("points", "Its points are the sum of its checks' `@check(points=<number>)`; its entry states none.",
         _points),
    Rule("mistakes", "`grader/mistakes/<id>.py` loads (every patch applies to its solution) and defines at least "
                     "one classic mistake.", _mistakes),
    Rule("mistake_texts", "Every mistake has a `looks_like` with no final full stop, a `hint`, and a patch or a "
                          "mutant.", _mistake_texts),
    Rule("mistakes_reviewed", "Every mistake is listed by the `mistakes:` of at least one quiz question.",
         _mistakes_reviewed),
    Rule("quiz_bank", "`quizzes/<id>.yaml` exists and is valid (`attnkit quiz validate`).", _quiz_bank),
    Rule("quiz_size", f"Its quiz bank has at least {MIN_QUESTIONS} questions, {MIN_PREDICT} to {MAX_PREDICT} of them "
                      "`predict: true`.", _quiz_size),
    Rule("unclaimed", "Every file of `solutions/`, `exercises/`, `grader/checks/`, `grader/mistakes/` and "
                      "`quizzes/` belongs to an exercise of the curriculum or is a listed shared file.",
         _unclaimed, Scope.COURSE),
)
