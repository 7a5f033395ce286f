"""The question model shared by every part of the quiz: constants and the ``Question`` dataclass."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from grader import curriculum

from .answers import Form

TYPES = ("single", "multiple", "true_false", "numeric", "short", "ordering")
GENERAL_TOPIC = "concepts"  # questions about self-attention as a whole, not about one exercise
TOPICS = (*curriculum.ids(), GENERAL_TOPIC)  # one topic per exercise, in learning-path order
# The documents a question may cite by file name (the kit's seed documents; they do not ship, so a question
# must state what it needs and keep the file only as its source). Papers are cited by title and year instead.
DOCUMENTS = ("000_fe5dac0e0cbd942d.txt", "001_e8a623b63a858117.txt", "002_5d842bf762d216d9.txt",
             "003_63dbfe1d11fdc09a.txt", "004_40fbc8846b023c24.txt")
DIFFICULTIES = ("easy", "medium", "hard")
TYPE_LABELS = {
    "single": "single choice",
    "multiple": "multiple choice",
    "true_false": "true / false",
    "numeric": "numeric",
    "short": "short answer",
    "ordering": "ordering",
}
FIELDS = ("id", "topic", "type", "prompt", "choices", "answer", "form", "tolerance", "pinned", "generator",
          "explanation", "source", "difficulty", "tags", "mistakes", "predict")


@dataclass(frozen=True)
class Source:
    """Where a question's fact comes from: a ``paper`` as "Title (year)" with its section, or one of the kit's seed
    ``document`` files. Only a paper is shown (``str``): learners and LMS users do not have the documents, and they
    have no title to cite, so a question sourced from one shows no source line."""

    section: str
    paper: str = ""
    document: str = ""

    def __str__(self) -> str:
        return f'{self.paper}, "{self.section}"' if self.paper else ""

    def line(self) -> str:
        """``Source: Title (year), "section"``, or "" when there is nothing a reader could look up."""
        return f"Source: {self}" if self.paper else ""


@dataclass(frozen=True)
class Question:
    """One validated question. For a generated question ``answer`` is None until instantiated."""

    id: str
    topic: str
    type: str
    prompt: str
    explanation: str
    source: Source
    difficulty: str
    choices: tuple[str, ...] = ()
    answer: Any = None
    form: Form = Form.TEXT  # how a short answer is read and compared (attnkit.quiz.answers)
    tolerance: float | None = None
    pinned: bool = False
    generator: str | None = None
    tags: tuple[str, ...] = ()
    mistakes: tuple[str, ...] = ()  # ids of grader.mistakes: `attnkit check` diagnosing one queues this question
    predict: bool = False  # a "predict, then run" question of the exercise named by ``topic``
    file: str = ""
    line: int = 0
    variant: int | None = field(default=None, compare=False)

    @property
    def generated(self) -> bool:
        return self.generator is not None

    def with_(self, **changes) -> "Question":
        return replace(self, **changes)

    def answer_text(self) -> str:
        """The correct answer as a person would write it."""
        if self.type == "true_false":
            return "True" if self.answer else "False"
        if self.type == "multiple":
            return "; ".join(self.answer)
        if self.type == "ordering":
            return " -> ".join(self.answer)
        if self.type == "short":
            return self.answer[0]
        if self.type == "numeric":
            return f"{format_number(self.answer)} (within +/- {format_number(self.tolerance)})"
        return str(self.answer)


def plural(count: int, noun: str) -> str:
    """``1 question``, ``2 questions``: every count the quiz prints goes through here."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def format_number(value: float) -> str:
    """A plain decimal string (no exponent), trimmed of trailing zeros: GIFT and text2qti need this."""
    if value is None:
        return ""
    value = float(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.10f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"
