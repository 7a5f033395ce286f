"""Grading results as plain dataclasses (no vendor format: see attnkit/grade/gradescope_results.py)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum


class Status(str, Enum):
    """How one check ended; a ``str`` so JSON files hold (and comparisons accept) the plain value."""

    PASSED = "passed"
    FAILED = "failed"
    NOT_IMPLEMENTED = "not_implemented"
    GRADER_ERROR = "grader_error"
    HELD = "held"  # a property check whose property is right, while its calls' values are wrong: 0 points

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


PASSED, FAILED, NOT_IMPLEMENTED, GRADER_ERROR, HELD = Status  # the members, in the order above


class NoteKind(str, Enum):
    """What the instructor is told about a hand-in beyond its checks; a ``str`` so JSON files hold the plain value.

    The sandbox notes the first six while the checks run (``grader.sandbox``'s session report), ``attnkit grade``
    the next two; the class summary's problems add the last two, which no hand-in's record carries."""

    TIMEOUT = "timeout"                    # a call stopped after the per-call timeout
    TOO_SLOW = "too_slow"                  # an exercise's, or the whole hand-in's, time ran out
    OUTPUT_TRUNCATED = "output_truncated"  # the code printed more than the sandbox keeps
    MISSING_MODULE = "missing_module"      # an exercise's module is not in the hand-in
    IMPORT_ERROR = "import_error"          # a module raised while it was imported
    DISK_QUOTA = "disk_quota"              # a call left more files than a child may write
    SKIPPED = "skipped"                    # an entry of the hand-in that was not used
    REFUSED = "refused"                    # the hand-in could not be graded as handed in
    HANDED_IN_TWICE = "handed_in_twice"    # a student with more than one hand-in (one is graded)
    NOT_GRADED = "not_graded"              # the grader failed on the hand-in; a re-run retries it

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


@dataclass(frozen=True)
class Note:
    """One thing the instructor is told about a hand-in: its kind and a line of detail (an exercise, a file...).

    Serialised as ``{"kind", "detail"}`` with the kind's plain value; :meth:`from_dict` refuses (ValueError) what
    this version cannot read: an unknown kind (a record of a newer version, or a damaged one) or a detail that is
    not text."""

    kind: NoteKind
    detail: str

    def __post_init__(self):
        object.__setattr__(self, "kind", NoteKind(self.kind))  # ValueError for a kind this version does not know
        if not isinstance(self.detail, str):
            raise ValueError(f"a note's detail is text, not {type(self.detail).__name__}")

    def to_dict(self) -> dict:
        return {"kind": self.kind.value, "detail": self.detail}

    @classmethod
    def from_dict(cls, data) -> Note:
        if not isinstance(data, dict) or set(data) != {"kind", "detail"}:
            raise ValueError(f"a note is {{'kind', 'detail'}}, not {str(data)[:80]}")
        return cls(data["kind"], data["detail"])


@dataclass
class WrongValue:
    """What an undiagnosed wrong value looked like, enough to find students who share it (``attnkit grade``'s
    unnamed groups): the failing call, the value's shape and dtype, up to :data:`SAMPLE` entries taken at fixed
    places (non-finite ones as text) and the first differing entry as the message said it."""

    call: str
    shape: list
    dtype: str
    sample: list
    difference: str = ""


DIAGNOSED = "\n  looks like "  # what a failure's message says before the classic mistake it looks like
SAMPLE = 32


@dataclass
class CheckResult:
    exercise: str
    name: str            # the check function's name, e.g. test_softmax_matches_reference
    title: str           # readable: first line of its docstring
    task: int
    points: float
    max_points: float
    status: Status
    message: str = ""    # what the student reads (call, got, expected)
    mistake: str = ""    # id of the diagnosed classic mistake, if any
    hint: str = ""
    visibility: str = "visible"
    seconds: float = 0.0
    blocked_by: str = ""  # another exercise whose module stopped this check (its error, its missing code)
    wrong: WrongValue | None = None  # a wrong value no mistake explains (for grouping students who share it)
    discrete: bool = False  # the wrong value was discrete (token ids, booleans): see grader.blame.unname_cascades

    def __post_init__(self):
        self.status = Status(self.status)  # a results file read back holds the plain value
        if isinstance(self.wrong, dict):
            self.wrong = WrongValue(**self.wrong)


@dataclass
class ExerciseResult:
    exercise: str
    checks: list[CheckResult] = field(default_factory=list)
    note: str = ""       # e.g. graded with the reference softmax, and the student's own softmax fails its checks
    reference_siblings: set = field(default_factory=set)  # modules of other exercises answered by the reference
    printed: tuple[str, int] = ("", 0)  # what the student's code printed (shown by attnkit check; grader.printed)

    @property
    def score(self) -> float:
        return sum(c.points for c in self.checks)

    @property
    def max_score(self) -> float:
        return sum(c.max_points for c in self.checks)

    @property
    def visible_score(self) -> float:
        """The points of the visible checks alone: what may be shown before grades are published."""
        return sum(c.points for c in self.checks if c.visibility == "visible")

    @property
    def visible_max_score(self) -> float:
        return sum(c.max_points for c in self.checks if c.visibility == "visible")

    @property
    def passed(self) -> int:
        return sum(c.status == PASSED for c in self.checks)

    @property
    def failures(self) -> list[CheckResult]:
        """The checks that did not pass, in task order (checks of one task in the order they ran); held checks
        after those that failed outright."""
        return sorted((c for c in self.checks if c.status != PASSED), key=lambda c: (c.status == HELD, c.task))

    @property
    def first_failure(self) -> CheckResult | None:
        """The failing check of the lowest task: where the student should look first (a held check only when no
        check failed outright)."""
        return next(iter(self.failures), None)


@dataclass
class SubmissionResult:
    student: str
    exercises: list[ExerciseResult] = field(default_factory=list)
    problem: str = ""    # a submission-level problem (unreadable zip, symlink refused...)
    notes: list[Note] = field(default_factory=list)  # skipped entries, timeouts... (attnkit.grade)

    @property
    def score(self) -> float:
        return sum(e.score for e in self.exercises)

    @property
    def max_score(self) -> float:
        return sum(e.max_score for e in self.exercises)

    def to_dict(self) -> dict:
        data = asdict(self)
        for exercise in data["exercises"]:
            exercise["reference_siblings"] = sorted(exercise["reference_siblings"])  # JSON has no sets
        data["notes"] = [note.to_dict() for note in self.notes]
        data["score"], data["max_score"] = self.score, self.max_score
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "SubmissionResult":
        """The result a record holds; ValueError for a note this version cannot read (see :meth:`Note.from_dict`)."""
        exercises = [ExerciseResult(e["exercise"], [CheckResult(**c) for c in e["checks"]], e.get("note", ""),
                                    set(e.get("reference_siblings", ()))) for e in data["exercises"]]
        return cls(student=data["student"], exercises=exercises, problem=data.get("problem", ""),
                   notes=[Note.from_dict(note) for note in data.get("notes", [])])
