"""When a question comes back: FSRS (the ``fsrs`` package) when it is installed, else Leitner boxes.

Every answer is a review with a rating: a wrong answer is Again; a right one is Good, or Easy when it came
fast (:func:`rate`). FSRS turns the rating into a memory state (stability, difficulty) and its own due
date. Without ``fsrs`` the quiz falls back on five Leitner boxes (right: up one box, wrong: back to box 1;
box 1 due at once, then 1, 3, 7 and 21 days). Each card keeps its Leitner box under FSRS too, so switching
either way keeps every question's place. A card answered without FSRS gets its FSRS state back by replaying
its recorded reviews (:meth:`Fsrs.replay`), or, when its history is not complete (progress from the Leitner
days), from its box (:meth:`Fsrs.seed`).
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone
from enum import Enum, IntEnum
from functools import lru_cache

LEITNER_DAYS = {1: 0, 2: 1, 3: 3, 4: 7, 5: 21}
FAST_SECONDS = 8.0          # an answer is fast when it comes within this ...
WORDS_PER_SECOND = 4.0      # ... plus the time to read the question and its choices at 240 words a minute
STEP = timedelta(minutes=10)  # FSRS's (re)learning step: a question missed comes back in a review 10 minutes on
DESIRED_RETENTION = 0.9     # FSRS schedules a question when the chance of recalling it falls to 90%


class Rating(IntEnum):
    """The review ratings (the same numbers as FSRS's); the quiz gives Again, Good or Easy."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


class Kind(Enum):
    FSRS = "fsrs"
    LEITNER = "leitner"


def fast_limit(words: int) -> float:
    """Seconds within which a right answer to a question of ``words`` words (prompt and choices) is fast."""
    return FAST_SECONDS + words / WORDS_PER_SECOND


def rate(correct: bool, seconds: float | None, words: int) -> Rating:
    """Again when wrong; Easy when right within :func:`fast_limit`; else Good. ``seconds`` is None when the
    answer was not typed live (a file or a pipe): then it is never Easy."""
    if not correct:
        return Rating.AGAIN
    return Rating.EASY if seconds is not None and seconds <= fast_limit(words) else Rating.GOOD


def leitner_box(box: int, rating: Rating, seen_before: bool) -> int:
    """The Leitner box after an answer: right moves up one box (a first answer lands in box 2), wrong to box 1."""
    if rating == Rating.AGAIN:
        return 1
    return min(box + 1, max(LEITNER_DAYS)) if seen_before else 2


@lru_cache(maxsize=1)
def fsrs_module():
    """The ``fsrs`` package, or None when it is not installed (then the quiz uses Leitner boxes)."""
    try:
        import fsrs
    except ImportError:
        return None
    return fsrs


def kind() -> Kind:
    return Kind.FSRS if fsrs_module() is not None else Kind.LEITNER


def utc(moment: datetime) -> datetime:
    return moment.astimezone(timezone.utc)


class Fsrs:
    """FSRS with one 10-minute (re)learning step, no fuzz (the same answers on the same days give the same
    schedule) and 90% desired retention."""

    def __init__(self):
        module = fsrs_module()
        if module is None:
            raise RuntimeError("the fsrs package is not installed")
        self.fsrs = module
        self.scheduler = module.Scheduler(desired_retention=DESIRED_RETENTION, learning_steps=(STEP,),
                                          relearning_steps=(STEP,), enable_fuzzing=False)

    @staticmethod
    def card_id(qid: str) -> int:
        return int(hashlib.sha256(qid.encode()).hexdigest()[:12], 16)

    def seed(self, qid: str, box: int, due: datetime, last: datetime | None):
        """An FSRS card for a question known only by its Leitner box: box 1 (never right, or missed last time)
        is a new card due when its box said; box b > 1 is a card under review whose stability is its box's
        interval in days (the recall the box has shown) with the difficulty of a first right answer."""
        module = self.fsrs
        if box <= 1:
            return module.Card(card_id=self.card_id(qid), due=utc(due))
        days = LEITNER_DAYS[box]
        difficulty = self.scheduler.review_card(module.Card(card_id=0, due=utc(due)), module.Rating.Good,
                                                utc(due))[0].difficulty
        return module.Card(card_id=self.card_id(qid), state=module.State.Review, step=None, stability=float(days),
                           difficulty=difficulty, due=utc(due), last_review=utc(last or due - timedelta(days=days)))

    def replay(self, qid: str, reviews):
        """The FSRS card of a question whose every review is known (``reviews``: (time, rating), oldest first),
        as if FSRS had scheduled it all along."""
        card = self.fsrs.Card(card_id=self.card_id(qid), due=utc(reviews[0][0]))
        for when, rating in reviews:
            card = self.review(card, rating, when)
        return card

    def load(self, data: dict):
        """An FSRS card from its stored form (ValueError, KeyError or TypeError when it is not one)."""
        card = self.fsrs.Card.from_dict(data)
        if card.due.tzinfo is None or (card.last_review is not None and card.last_review.tzinfo is None):
            raise ValueError("an FSRS date without its time zone")
        return card

    def review(self, card, rating: Rating, when: datetime):
        return self.scheduler.review_card(card, self.fsrs.Rating(int(rating)), utc(when))[0]

    def recall(self, card, when: datetime) -> float:
        """FSRS's probability that the question is recalled at ``when``."""
        return float(self.scheduler.get_card_retrievability(card, utc(when)))
