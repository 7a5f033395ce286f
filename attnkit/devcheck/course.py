"""The course as the curriculum and the files of its exercises, judged by the rules (``attnkit.devcheck.rules``).

``Course(root).problems()`` lists every broken rule, each naming the rule, the exercise (none for a rule of the
course) and the file; ``python -m attnkit.devcheck`` prints them, the tests assert there are none.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .rules import RULES, Rule, Scope


@dataclass(frozen=True)
class Problem:
    rule: str
    exercise: str | None
    file: str
    what: str

    def __str__(self) -> str:
        return f"{self.file}: {self.what} [{self.rule}]"


class Files:
    """One exercise's entry and files, each read once (whatever fails to load is kept as its error)."""

    def __init__(self, root: Path, exercise, all_questions):
        self.root, self.exercise, self.all_questions = root, exercise, all_questions
        self.solution = root / "solutions" / f"{exercise.id}.py"
        self.stub = root / "exercises" / f"{exercise.id}.py"
        self.checks = root / "grader" / "checks" / f"check_{exercise.id}.py"
        self.mistakes_file = root / "grader" / "mistakes" / f"{exercise.id}.py"
        self.quiz = root / "quizzes" / f"{exercise.id}.yaml"
        self.checks_error = self.mistakes_error = ""

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    @cached_property
    def specs(self):
        """The exercise's checks, or None when they do not load (``checks_error`` says why)."""
        from grader.runner import discover

        if not self.checks.is_file():
            self.checks_error = "no checks file"
            return None
        try:
            return discover(self.exercise.id)
        except (ImportError, TypeError, ValueError, SyntaxError) as error:
            self.checks_error = f"the checks do not load: {error}"
            return None

    @cached_property
    def mistakes(self):
        """The exercise's classic mistakes, or None when they do not load (``mistakes_error`` says why)."""
        from grader import mistakes

        if not self.mistakes_file.is_file():
            self.mistakes_error = "no mistakes module"
            return None
        try:
            return mistakes.of_exercise(self.exercise.id)
        except (ImportError, TypeError, ValueError, SyntaxError) as error:  # PatchError is a ValueError
            self.mistakes_error = f"the mistakes do not load: {error}"
            return None

    @cached_property
    def _bank(self):
        return (_read_bank(self.quiz) or (None, None)) if self.quiz.is_file() else ([], [])

    @property
    def questions(self):
        """The bank's questions (None when it cannot be read while a mistake does not load)."""
        return self._bank[0]

    @property
    def quiz_problems(self):
        return self._bank[1]


class Course:
    """The curriculum of the project at ``root`` (the imported ``grader``'s by default) and its exercises' files."""

    def __init__(self, root: Path | None = None, rules: tuple[Rule, ...] = RULES):
        from grader import curriculum

        self.root = repository() if root is None else root
        self.rules = rules
        self.exercises = curriculum.exercises()

    @cached_property
    def _all_questions(self):
        banks = [_read_bank(path) for path in sorted((self.root / "quizzes").glob("*.yaml"))]
        return None if None in banks else [question for questions, _ in banks for question in questions]

    def files(self, exercise) -> Files:
        return Files(self.root, exercise, self._all_questions)

    def problems(self, exercise_ids=None) -> list[Problem]:
        """Every broken rule, exercise by exercise in learning-path order (``exercise_ids``: only theirs), then
        those of the course (when every exercise is judged)."""
        chosen = [e for e in self.exercises if exercise_ids is None or e.id in exercise_ids]
        found = []
        for exercise in chosen:
            files = self.files(exercise)
            found += [Problem(rule.id, exercise.id, file, what) for rule in self.rules
                      if rule.scope is Scope.EXERCISE for file, what in rule.find(files)]
        return found + (self.course_problems() if exercise_ids is None else [])

    def course_problems(self) -> list[Problem]:
        """The broken rules of the course as a whole (files no exercise claims)."""
        ids = tuple(e.id for e in self.exercises)
        return [Problem(rule.id, None, file, what) for rule in self.rules
                if rule.scope is Scope.COURSE for file, what in rule.find(self.root, ids)]

def _read_bank(path: Path):
    """(questions, problems) of one quiz bank; None while a mistake's patch does not apply (validating the banks'
    mistake tags loads every mistake, and the ``mistakes`` rule names the one that fails)."""
    from attnkit.quiz.bank import read_file
    from grader.mistakes.anchors import PatchError

    try:
        return read_file(path)
    except PatchError:
        return None


def repository() -> Path:
    """The project folder the imported ``grader`` package belongs to."""
    import grader

    return Path(grader.__file__).resolve().parents[1]
