"""What ``attnkit grade``'s steps hand each other (:mod:`attnkit.grade.pipeline` lists them): the class's state
(:class:`Course`) and one hand-in's (:class:`Submission`), and the one signature every step has (:class:`Step`).

A step takes the state and returns it, filled in further; a step of the class that must end the run raises
:class:`Stop` (its message is printed as one line, its status is the exit status).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from grader.results import ExerciseResult, Note, SubmissionResult

from .submissions import Entry, Intake


class Stop(Exception):
    """The run ends here: ``attnkit grade: <message>`` on stderr, exit ``status``."""

    status = 1


class UserError(Stop):
    """A mistake in how the command was called: printed as one line, exit status 2, nothing graded."""

    status = 2


@dataclass(frozen=True)
class Options:
    """The command line's choices (``attnkit grade --help``)."""

    jobs: int | None               # parallel submissions; None: the cores
    timeout: float                 # seconds one call may take
    memory_mb: int                 # memory of one child
    student_timeout: float         # seconds all the calls of one submission may take together
    progress: bool | None = None   # a bar (True), lines (False), a bar on a terminal (None)
    exercises: tuple[str, ...] | None = None  # a course's subset; None: the whole curriculum
    pictures: bool = True          # the class summary's PNGs


@dataclass(frozen=True)
class Task:
    """One hand-in to grade, as a worker receives it."""

    entry: Entry
    submission_hash: str
    out: Path
    version: str                   # the grader's version (and the course, when a subset): a record's freshness
    exercises: tuple[str, ...]     # the course's exercises (all of the curriculum, or --exercises)


@dataclass
class Submission:
    """One hand-in on its way through the submission steps."""

    task: Task
    scratch: Path | None = None               # intake's private folder (removed once the steps are done)
    intake: Intake | None = None              # the .py files used, the entries skipped
    refusal: str | None = None                # why it cannot be graded as handed in (then no check runs)
    modules: Path | None = None               # where the unpacked modules are
    exercises: list[ExerciseResult] = field(default_factory=list)  # the checks' results
    problems: list[Note] = field(default_factory=list)             # what the sandbox noted
    result: SubmissionResult | None = None    # what is recorded


@dataclass
class Course:
    """The class on its way through the class steps."""

    submissions: Path
    out: Path
    options: Options
    entries: list[Entry] = field(default_factory=list)     # one per student, sorted by student
    warnings: list[str] = field(default_factory=list)      # what SUBMISSIONS held that is not a hand-in
    exercises: tuple[str, ...] = ()                        # the course's exercises
    tasks: list[Task] = field(default_factory=list)        # the hand-ins to grade (the others are up to date)
    skipped: int = 0                                       # hand-ins whose record is up to date
    errors: dict[str, str] = field(default_factory=dict)   # student -> the grader's failure (no record)
    text: str = ""                                         # the class summary, printed at the end


State = TypeVar("State", Submission, Course)
Value = TypeVar("Value")


def needed(value: Value | None, what: str, step: str) -> Value:
    """``value``, which an earlier step filled in; None means the steps ran out of their listed order (a bug of
    the grader's: the worker reports it as an internal error and a re-run retries)."""
    if value is None:
        raise RuntimeError(f"the {step} step needs {what}, which an earlier step fills in: run the steps in the "
                           "order attnkit/grade/pipeline.py lists")
    return value


class Step(Protocol[State]):
    """One step: the state, filled in further."""

    def __call__(self, state: State, /) -> State: ...
