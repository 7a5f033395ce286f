""""Predict, then run": a few questions per exercise about what the function must return for a given input.

``attnkit quiz --exercise NAME`` asks them; :func:`passed` tells ``attnkit check`` whether the learner has
answered each one right (its last answer), for the optional gate an instructor can switch on.
"""
from __future__ import annotations

from pathlib import Path

from .model import Question
from .progress import Progress


def questions(exercise: str, bank=None) -> list[Question]:
    """The exercise's "predict, then run" questions, in the order the bank writes them."""
    from .bank import load_bank

    bank = bank or load_bank()
    return [question for question in bank.questions if question.predict and question.topic == exercise]


def missing(exercise: str, *, path: Path | None = None, bank=None) -> list[str]:
    """Ids of the exercise's predict questions whose last answer was not right (or that were never asked)."""
    cards = Progress.load(path).cards
    return [q.id for q in questions(exercise, bank) if q.id not in cards or cards[q.id].box < 2]


def passed(exercise: str, *, path: Path | None = None, bank=None) -> bool:
    """True when every predict question of ``exercise`` was last answered right (True if it has none)."""
    return not missing(exercise, path=path, bank=bank)


def command(exercise: str) -> str:
    """What to run to answer them."""
    return f"attnkit quiz --exercise {exercise}"
