"""Quiz progress: every question's review state and history, in a per-user, per-course JSON file.

Each answer is a review with a rating (see :mod:`attnkit.quiz.schedule`); the card keeps its FSRS state
(when ``fsrs`` is installed), its Leitner box, its due date and its last reviews. A classic mistake
diagnosed in the learner's code (:func:`note_mistakes`) makes the questions about it due now, first in the
next review. The file is ``quiz-progress.json`` in the course's folder under ``$ATTNKIT_HOME`` (or the
platform's user data dir), rewritten atomically after every answer, so a killed session loses nothing it
had saved. A file in the first format (Leitner boxes only) is upgraded on load, its copy kept beside it;
an unreadable one is set aside, never overwritten.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from attnkit import userdata
from grader import atomic

from . import schedule
from .schedule import LEITNER_DAYS, Kind, Rating

FORMAT = "attnkit-quiz-progress"
VERSION = 2
FILENAME = "quiz-progress.json"
HISTORY = 100    # reviews kept per question (the oldest are dropped first)
SESSIONS = 200   # session summaries kept


def default_path() -> Path:
    return userdata.state_file(FILENAME)[0]


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


@dataclass
class Review:
    at: str
    rating: Rating
    seconds: float | None = None  # time to answer when typed live

    def to_json(self) -> dict:
        return {"at": self.at, "rating": int(self.rating), "seconds": self.seconds}

    @classmethod
    def from_json(cls, raw: dict) -> "Review":
        parse(raw["at"])
        seconds = raw.get("seconds")
        if seconds is not None and not isinstance(seconds, (int, float)):
            raise ValueError(f"review seconds {seconds!r} is not a number")
        return cls(raw["at"], Rating(int(raw["rating"])), seconds)


@dataclass
class Card:
    box: int = 1
    due: str = ""
    reviews: int = 0
    lapses: int = 0
    last: str = ""
    why: str = ""  # the mistake id that queued this card for review, until it is answered
    fsrs: dict | None = None  # FSRS's card state (fsrs.Card.to_dict()), once FSRS has scheduled it
    history: list[Review] = field(default_factory=list)

    def due_at(self) -> datetime:
        return parse(self.due)

    def to_json(self) -> dict:
        return {"box": self.box, "due": self.due, "reviews": self.reviews, "lapses": self.lapses, "last": self.last,
                "why": self.why, "fsrs": self.fsrs, "history": [review.to_json() for review in self.history]}

    @classmethod
    def from_json(cls, raw: dict) -> "Card":
        raw = dict(raw)
        history = [Review.from_json(item) for item in raw.pop("history", [])]
        card = cls(**raw, history=history)
        if card.fsrs is not None and not isinstance(card.fsrs, dict):
            raise ValueError("its FSRS state is not a mapping")
        if card.box not in LEITNER_DAYS:
            raise ValueError(f"box {card.box}")
        if not all(isinstance(count, int) and count >= 0 for count in (card.reviews, card.lapses)):
            raise ValueError(f"answer counts {card.reviews!r} and {card.lapses!r}")
        if not isinstance(card.why, str):
            raise ValueError(f"mistake {card.why!r}")
        card.due_at()
        if card.last:
            parse(card.last)
        return card


@dataclass
class Progress:
    """The review state of every question seen so far, plus a short session log."""

    path: Path
    cards: dict[str, Card] = field(default_factory=dict)
    sessions: list[dict] = field(default_factory=list)
    notice: str | None = None  # what happened to the file on load (moved, upgraded, set aside)
    kind: Kind = field(default_factory=schedule.kind)

    def __post_init__(self):
        self._fsrs = schedule.Fsrs() if self.kind == Kind.FSRS else None

    @classmethod
    def load(cls, path: Path | None = None) -> "Progress":
        """Read the progress file; a missing file is a fresh start, an unreadable one is copied aside first."""
        moved = None
        if path is None:
            path, moved = userdata.state_file(FILENAME)
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path, notice=moved)
        except OSError as error:
            return cls(path, notice=f"could not read {path} ({error}); starting with empty progress")
        progress = cls(path)
        try:
            problems = progress._read(json.loads(text))
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            backup = progress._set_aside("corrupt")
            return cls(path, notice=(f"progress file {path} is corrupted ({error}); nothing was lost: a copy was "
                                     f"kept as {backup.name}; starting with empty progress"))
        notes = [moved] if moved else []
        if problems:
            backup = progress._set_aside("corrupt")
            notes.append(f"progress file {path}: {'; '.join(problems[:5])}{' ...' if len(problems) > 5 else ''}; "
                         f"those questions start afresh, the others keep their progress; the whole file was "
                         f"kept as {backup.name}")
        if progress.notice:
            notes.append(progress.notice)
        progress.notice = "\n".join(notes) or None
        return progress

    def _set_aside(self, why: str) -> Path:
        """A copy of the file as it is (one per content: loading the same damaged file again copies nothing)."""
        data = self.path.read_bytes()
        for earlier in sorted(self.path.parent.glob(f"{self.path.name}.{why}-*"))[-20:]:
            if earlier.read_bytes() == data:
                return earlier
        backup = self.path.with_name(f"{self.path.name}.{why}-{now_utc().strftime('%Y%m%dT%H%M%SZ')}")
        shutil.copy2(self.path, backup)
        return backup

    def _read(self, data) -> list[str]:
        """Fill in the cards and sessions of ``data``; return the cards that could not be read (ValueError when
        the file as a whole is not a progress file)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not an {FORMAT} file")
        version = data.get("version", 1)
        if version not in (1, VERSION):
            raise ValueError(f"format version {version!r}; this attnkit reads versions 1 and {VERSION}")
        cards = data.get("cards", {})
        sessions = data.get("sessions", [])
        if not isinstance(cards, dict) or not isinstance(sessions, list):
            raise ValueError("'cards' is not a mapping or 'sessions' is not a list")
        problems = []
        for qid, raw in cards.items():
            try:
                card = Card.from_json(raw)
                if card.fsrs is not None and self._fsrs is not None:
                    self._fsrs.load(card.fsrs)
            except (ValueError, TypeError, KeyError, AttributeError) as error:
                problems.append(f"question {qid!r} is unreadable ({error})")
                continue
            self.cards[qid] = card
        self.sessions = sessions
        if version == 1:
            self._upgrade()
        return problems

    def _upgrade(self) -> None:
        """Cards of the first format: with FSRS, each reviewed card gets an FSRS state from its box (its due
        date, box and answer counts unchanged); the file as it was is kept beside the new one."""
        seeded = 0
        if self._fsrs is not None:
            for qid, card in self.cards.items():
                if card.reviews and card.box > 1 and card.fsrs is None:
                    last = parse(card.last) if card.last else None
                    card.fsrs = self._fsrs.seed(qid, card.box, card.due_at(), last).to_dict()
                    seeded += 1
        backup = self.path.with_name(f"{self.path.name}.v1")
        if not backup.exists():
            shutil.copy2(self.path, backup)
        how = (f"an FSRS memory state from the Leitner box for the {seeded} last answered right" if self._fsrs
               else "Leitner boxes")
        self.notice = (f"quiz progress upgraded: {len(self.cards)} questions keep their due dates, answer counts "
                       f"and boxes, with {how}; the file as it was is kept as {backup.name}")

    def to_json(self) -> str:
        cards = {qid: card.to_json() for qid, card in sorted(self.cards.items())}
        return json.dumps({"format": FORMAT, "version": VERSION, "scheduler": self.kind.value, "cards": cards,
                           "sessions": self.sessions[-SESSIONS:]}, indent=1) + "\n"

    def save(self) -> None:
        userdata.prepare(self.path)
        atomic.write_text(self.path, self.to_json())

    def record(self, qid: str, rating: Rating | bool, when: datetime, seconds: float | None = None) -> Card:
        """Review ``qid`` at ``when`` with ``rating`` (True/False: right/wrong, typed not live)."""
        if isinstance(rating, bool):
            rating = schedule.rate(rating, None, 0)
        card = self.cards.get(qid) or Card()
        card.box = schedule.leitner_box(card.box, rating, bool(card.reviews))
        card.lapses += rating == Rating.AGAIN
        if self._fsrs is not None:
            state = self._fsrs_card(qid, card)
            state = self._fsrs.review(state, rating, when)
            card.fsrs, card.due = state.to_dict(), iso(state.due)
        else:  # FSRS's state no longer describes the card: rebuilt from the history when FSRS is back
            card.fsrs, card.due = None, iso(when + timedelta(days=LEITNER_DAYS[card.box]))
        card.reviews += 1
        card.why = ""
        card.last = iso(when)
        card.history = (card.history + [Review(card.last, rating, None if seconds is None else round(seconds, 1))])
        card.history = card.history[-HISTORY:]
        self.cards[qid] = card
        return card

    def _fsrs_card(self, qid: str, card: Card):
        if card.fsrs is not None:
            return self._fsrs.load(card.fsrs)
        if card.reviews and len(card.history) == card.reviews:
            return self._fsrs.replay(qid, [(parse(review.at), review.rating) for review in card.history])
        last = parse(card.last) if card.last else None
        due = card.due_at() if card.due else now_utc()
        return self._fsrs.seed(qid, card.box if card.reviews else 1, due, last)

    def recall(self, qid: str, when: datetime) -> float | None:
        """FSRS's chance that ``qid`` is recalled at ``when``, for a question FSRS holds as learned (in its review
        state, not new or being relearned after a wrong answer); None otherwise, and without FSRS."""
        card = self.cards.get(qid)
        if self._fsrs is None or card is None or card.fsrs is None:
            return None
        state = self._fsrs.load(card.fsrs)
        return self._fsrs.recall(state, when) if state.state == self._fsrs.fsrs.State.Review else None

    def queue(self, reasons: dict[str, str], when: datetime) -> int:
        """Make each question of ``reasons`` (id -> mistake id) due at ``when`` (box 1); return how many."""
        for qid, why in reasons.items():
            card = self.cards.get(qid) or Card()
            card.box, card.due, card.why = 1, iso(when), why
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
    ``tags`` (an exercise id works as a concept when questions carry it as a tag). Without ``bank``, the shipped
    banks, through their index where a build wrote one (``about.py``)."""
    from . import about

    wanted = [item for item in ids if isinstance(item, str)]
    listed = about.indexed() if bank is None else None
    if listed is None:
        from .bank import load_bank

        files = about.default_files() if bank is None else None
        listed = [(question.id, {*question.mistakes, *question.tags}) for question in (bank or load_bank()).questions]
        if files is not None:  # the shipped banks, loaded: the next check need not load them again
            about.remember(files, listed)
    found = {}
    for qid, subjects in listed:
        hit = next((item for item in wanted if item in subjects), None)
        if hit is not None:
            found[qid] = hit
    return found


def note_mistakes(ids, *, path: Path | None = None, when: datetime | None = None, notes: list | None = None) -> int:
    """Queue for the next ``attnkit quiz --review`` every question about one of ``ids`` (mistake ids that
    ``attnkit check`` or ``attnkit grade`` diagnosed); return how many questions were queued.

    Called by ``attnkit check``: a broken bank queues nothing (``attnkit quiz validate`` reports it), an
    unreadable progress file is set aside as in :meth:`Progress.load` (what happened to the file is appended
    to ``notes``); OSError when it cannot be written.
    """
    ids = list(ids)
    if not ids:
        return 0
    try:
        reasons = questions_about(ids)
    except Exception as error:
        from .bank import BankError  # only now: with the banks' index, check never loads the banks' reader

        if not isinstance(error, BankError):
            raise
        return 0
    if not reasons:
        return 0
    progress = Progress.load(path)
    if progress.notice and notes is not None:
        notes.append(progress.notice)
    count = progress.queue(reasons, when or now_utc())
    progress.save()
    return count
