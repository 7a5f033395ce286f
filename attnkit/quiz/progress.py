"""Spaced repetition with Leitner boxes, kept in a per-user JSON file.

Box 1 is due at once, box 2 after 1 day, box 3 after 3, box 4 after 7, box 5 after 21.
A right answer moves a question up one box, a wrong one sends it back to box 1. A classic mistake
diagnosed in the learner's code (:func:`note_mistakes`) sends the questions about it back to box 1, due now.
The file lives in ``$ATTNKIT_HOME`` (or the platform's user data dir) as ``quiz-progress.json``
and is rewritten atomically after every answer, so a killed session loses nothing it had saved.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from attnkit import atomic
from attnkit.userdata import home

INTERVALS = {1: timedelta(0), 2: timedelta(days=1), 3: timedelta(days=3), 4: timedelta(days=7), 5: timedelta(days=21)}
FORMAT = "attnkit-quiz-progress"
FILENAME = "quiz-progress.json"


def default_path() -> Path:
    return home() / FILENAME


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


@dataclass
class Card:
    box: int = 1
    due: str = ""
    reviews: int = 0
    lapses: int = 0
    last: str = ""
    why: str = ""  # the mistake id that queued this card for review, until it is answered

    def due_at(self) -> datetime:
        return _parse(self.due)


@dataclass
class Progress:
    """Leitner state of every question seen so far, plus a short session log."""

    path: Path
    cards: dict[str, Card] = field(default_factory=dict)
    sessions: list[dict] = field(default_factory=list)
    notice: str | None = None  # set when a corrupted file was set aside

    @classmethod
    def load(cls, path: Path | None = None) -> "Progress":
        """Read the progress file; a missing file is a fresh start, a corrupted one is backed up first."""
        path = Path(path) if path else default_path()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except OSError as error:
            return cls(path, notice=f"could not read {path} ({error}); starting with empty progress")
        try:
            return cls._from_json(path, json.loads(text))
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            backup = path.with_name(f"{path.name}.corrupt-{now_utc().strftime('%Y%m%dT%H%M%SZ')}")
            shutil.copy2(path, backup)
            return cls(path, notice=(f"progress file {path} is corrupted ({error}); a copy was kept as "
                                     f"{backup.name}, starting with empty progress"))

    @classmethod
    def _from_json(cls, path: Path, data) -> "Progress":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not an {FORMAT} file")
        cards = {}
        for qid, raw in data.get("cards", {}).items():
            card = Card(**raw)
            if card.box not in INTERVALS:
                raise ValueError(f"card {qid!r} has box {card.box}")
            card.due_at()
            cards[qid] = card
        sessions = data.get("sessions", [])
        if not isinstance(sessions, list):
            raise ValueError("'sessions' is not a list")
        return cls(path, cards, sessions)

    def to_json(self) -> str:
        cards = {qid: vars(card) for qid, card in sorted(self.cards.items())}
        return json.dumps({"format": FORMAT, "version": 1, "cards": cards, "sessions": self.sessions[-200:]},
                          indent=1) + "\n"

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(self.path, self.to_json())

    def record(self, qid: str, correct: bool, when: datetime) -> Card:
        """Move ``qid`` between Leitner boxes after an answer at ``when``."""
        card = self.cards.get(qid) or Card()
        if correct:
            card.box = min(card.box + 1, max(INTERVALS)) if card.reviews else 2
        else:
            card.box = 1
            card.lapses += 1
        card.reviews += 1
        card.why = ""
        card.last = _iso(when)
        card.due = _iso(when + INTERVALS[card.box])
        self.cards[qid] = card
        return card

    def queue(self, reasons: dict[str, str], when: datetime) -> int:
        """Make each question of ``reasons`` (id -> mistake id) due at ``when`` in box 1; return how many."""
        for qid, why in reasons.items():
            card = self.cards.get(qid) or Card()
            card.box, card.due, card.why = 1, _iso(when), why
            self.cards[qid] = card
        return len(reasons)

    def due(self, when: datetime, ids=None) -> list[str]:
        """Question ids due at ``when`` (those queued by a mistake first, then earliest, then lowest box),
        among ``ids`` if given."""
        wanted = set(ids) if ids is not None else None
        due = [(not card.why, card.due_at(), card.box, qid) for qid, card in self.cards.items()
               if card.due_at() <= when and (wanted is None or qid in wanted)]
        return [qid for *_, qid in sorted(due)]

    def next_due(self, ids=None) -> datetime | None:
        wanted = set(ids) if ids is not None else None
        moments = [card.due_at() for qid, card in self.cards.items() if wanted is None or qid in wanted]
        return min(moments) if moments else None


def questions_about(ids, bank=None) -> dict[str, str]:
    """Question id -> the first of ``ids`` it is about: a mistake it names in ``mistakes`` or a word of its
    ``tags`` (an exercise id works as a concept when questions carry it as a tag)."""
    from .bank import load_bank

    wanted = [item for item in ids if isinstance(item, str)]
    bank = bank or load_bank()
    found = {}
    for question in bank.questions:
        about = set(question.mistakes) | set(question.tags)
        hit = next((item for item in wanted if item in about), None)
        if hit is not None:
            found[question.id] = hit
    return found


def note_mistakes(ids, *, path: Path | None = None, when: datetime | None = None) -> int:
    """Queue for the next ``attnkit quiz --review`` every question about one of ``ids`` (mistake ids that
    ``attnkit check`` or ``attnkit grade`` diagnosed); return how many questions were queued.

    Called by ``attnkit check``: a broken bank queues nothing (``attnkit quiz validate`` reports it), an
    unreadable progress file is set aside as in :meth:`Progress.load`; OSError when it cannot be written.
    """
    from .bank import BankError

    ids = list(ids)
    if not ids:
        return 0
    try:
        reasons = questions_about(ids)
    except BankError:
        return 0
    if not reasons:
        return 0
    progress = Progress.load(path)
    count = progress.queue(reasons, when or now_utc())
    progress.save()
    return count
