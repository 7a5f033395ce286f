"""``attnkit quiz --stats``: how well the learner retains what was reviewed, and the reviews of the coming days."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from .model import plural
from .progress import Progress, now_utc, parse
from .schedule import Kind, Rating
from .session import percent_of

WINDOW_DAYS = 30   # retention counts the answers of the last 30 days
DAYS_AHEAD = 7     # the due list covers today and the next 7 days


@dataclass(frozen=True)
class Stats:
    kind: Kind
    tracked: int
    answers: int
    sessions: int
    retained: int            # right answers to questions answered before, in the window
    revisited: int           # answers to questions answered before, in the window
    recall: float | None     # FSRS's mean chance of recalling the learned questions now (None: no such question)
    recall_over: int         # how many questions that mean is over
    due_now: int
    due_by_day: tuple[tuple[date, int], ...]  # later today, then each of the next DAYS_AHEAD days
    due_later: int


def compute(progress: Progress, now: datetime, zone: tzinfo | None = None) -> Stats:
    """The figures of ``progress`` at ``now``; days are calendar days in ``zone`` (default: the local zone)."""
    since = now - timedelta(days=WINDOW_DAYS)
    retained = revisited = answers = 0
    for card in progress.cards.values():
        answers += card.reviews
        for index, review in enumerate(card.history):
            if (index or card.reviews > len(card.history)) and parse(review.at) >= since:
                revisited += 1
                retained += review.rating != Rating.AGAIN
    chances = [c for c in (progress.recall(qid, now) for qid in progress.cards) if c is not None]
    today = now.astimezone(zone).date()
    days = [today + timedelta(days=offset) for offset in range(DAYS_AHEAD + 1)]
    counts = dict.fromkeys(days, 0)
    due_now = later = 0
    for card in progress.cards.values():
        moment = card.due_at()
        if moment <= now:
            due_now += 1
            continue
        day = moment.astimezone(zone).date()
        if day in counts:
            counts[day] += 1
        else:
            later += 1
    return Stats(progress.kind, len(progress.cards), answers, len(progress.sessions), retained, revisited,
                 sum(chances) / len(chances) if chances else None, len(chances), due_now,
                 tuple(counts.items()), later)


def render(stats: Stats, where: str) -> str:
    """The text ``attnkit quiz --stats`` prints (``where``: the course the progress belongs to)."""
    scheduler = ("FSRS" if stats.kind == Kind.FSRS
                 else "Leitner boxes; `pip install fsrs` schedules with FSRS")
    lines = [f"Quiz progress for {where} (scheduling: {scheduler})",
             f"  {plural(stats.tracked, 'question')} tracked, {plural(stats.answers, 'answer')} recorded, "
             f"{plural(stats.sessions, 'session')}"]
    if stats.revisited:
        lines.append(f"  Retention: {stats.retained}/{stats.revisited} ({percent_of(stats.retained, stats.revisited)}%)"
                     f" of the answers to questions you had answered before were right (last {WINDOW_DAYS} days)")
    else:
        lines.append(f"  Retention: no question answered a second time in the last {WINDOW_DAYS} days yet")
    if stats.recall is not None:
        lines.append(f"  FSRS estimates that you would recall {round(100 * stats.recall)}% of the "
                     f"{plural(stats.recall_over, 'question')} you have learned, today")
    lines.append("  Reviews due:")
    lines.append(f"    {'now':<12} {stats.due_now}")
    for index, (day, count) in enumerate(stats.due_by_day):
        label = "later today" if index == 0 else "tomorrow" if index == 1 else day.strftime("%a %d %b")
        lines.append(f"    {label:<12} {count}")
    lines.append(f"    {'after that':<12} {stats.due_later}")
    if stats.due_now:
        lines.append("  `attnkit quiz --review` asks what is due now.")
    return "\n".join(lines)


def show(out, err, clock=None) -> int:
    """``attnkit quiz --stats``: print the figures of this course's progress; return the exit status."""
    from attnkit.userdata import course

    try:
        progress = Progress.load()
    except OSError as error:  # a damaged file that could not be copied aside
        print(f"attnkit quiz: cannot read progress: {error}. Set ATTNKIT_HOME to a writable folder.", file=err)
        return 1
    text = render(compute(progress, (clock or now_utc)()), course().label)
    try:
        print(f"note: {progress.notice}\n{text}" if progress.notice else text, file=out)
    except BrokenPipeError:  # `attnkit quiz --stats | head`
        return 141
    return 0
