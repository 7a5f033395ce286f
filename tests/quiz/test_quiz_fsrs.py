"""Scheduling: each answer a rated review; FSRS's due dates when ``fsrs`` is installed, Leitner boxes when not."""
import io
from datetime import timedelta

import pytest

from attnkit.quiz import schedule
from attnkit.quiz.bank import load_bank
from attnkit.quiz.progress import Progress, parse
from attnkit.quiz.schedule import Kind, Rating, fast_limit, rate
from attnkit.quiz.session import LineSource, Session, Settings

from .test_quiz_session import MINI, SEED, T0, plan, right_answer, run


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def fsrs_scheduler():
    """FSRS as the quiz configures it, built here from the package itself (the oracle of these tests)."""
    import fsrs

    return fsrs.Scheduler(desired_retention=0.9, learning_steps=(timedelta(minutes=10),),
                          relearning_steps=(timedelta(minutes=10),), enable_fuzzing=False)


def test_the_rating_of_an_answer():
    assert fast_limit(0) == 8.0 and fast_limit(40) == 18.0  # 8 s, plus reading at 240 words a minute
    assert rate(False, 1.0, 40) == Rating.AGAIN
    assert rate(True, 18.0, 40) == Rating.EASY and rate(True, 18.1, 40) == Rating.GOOD
    assert rate(True, None, 40) == Rating.GOOD  # not typed live: never easy
    assert [int(r) for r in (Rating.AGAIN, Rating.GOOD, Rating.EASY)] == [1, 3, 4]  # FSRS's numbers


def test_fsrs_schedules_each_rating_as_the_fsrs_package_does(with_fsrs):
    import fsrs

    progress = Progress.load()
    assert progress.kind == Kind.FSRS
    oracle = fsrs_scheduler()
    for qid, ratings in {"a": [Rating.AGAIN, Rating.GOOD], "b": [Rating.GOOD, Rating.GOOD], "c": [Rating.EASY]}.items():
        expected, when = fsrs.Card(card_id=1, due=T0), T0
        for rating in ratings:
            card = progress.record(qid, rating, when)
            expected, _ = oracle.review_card(expected, fsrs.Rating(int(rating)), when)
            assert card.due_at() == expected.due.replace(microsecond=0)
            assert card.fsrs["stability"] == pytest.approx(expected.stability)
            when = expected.due
    cards = progress.cards
    assert [r.rating for r in cards["a"].history] == [Rating.AGAIN, Rating.GOOD] and cards["a"].lapses == 1
    assert parse(cards["a"].history[0].at) == T0
    assert cards["c"].due_at() - T0 > timedelta(days=3)  # easy on first sight: several days, not minutes


def test_a_missed_question_comes_back_ten_minutes_later_with_fsrs(with_fsrs):
    progress = Progress.load()
    progress.record("a", Rating.AGAIN, T0)
    assert progress.due(T0 + timedelta(minutes=9)) == [] and progress.due(T0 + timedelta(minutes=10)) == ["a"]


def test_without_fsrs_the_leitner_boxes_schedule(without_fsrs):
    progress = Progress.load()
    assert progress.kind == Kind.LEITNER
    card = progress.record("a", Rating.EASY, T0)
    assert (card.box, card.due_at(), card.fsrs) == (2, T0 + timedelta(days=1), None)
    card = progress.record("a", Rating.GOOD, T0 + timedelta(days=1))
    assert (card.box, card.due_at()) == (3, T0 + timedelta(days=4))
    card = progress.record("a", Rating.AGAIN, T0 + timedelta(days=4))
    assert (card.box, card.due_at(), card.lapses) == (1, T0 + timedelta(days=4), 1)


def test_switching_schedulers_keeps_every_question_in_place(monkeypatch):
    import sys

    schedule.fsrs_module.cache_clear()
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "fsrs", None)
        progress = Progress.load()
        progress.record("a", True, T0)
        progress.record("a", True, T0 + timedelta(days=1))  # box 3, due in 3 days
        progress.save()
        schedule.fsrs_module.cache_clear()
    progress = Progress.load()  # fsrs installed again
    assert progress.kind == Kind.FSRS and progress.cards["a"].due_at() == T0 + timedelta(days=4)
    card = progress.record("a", Rating.GOOD, T0 + timedelta(days=4))
    import fsrs  # the whole history is known: FSRS's state is as if it had scheduled every answer

    expected = fsrs.Card(card_id=1, due=T0)
    for when in (T0, T0 + timedelta(days=1), T0 + timedelta(days=4)):
        expected, _ = fsrs_scheduler().review_card(expected, fsrs.Rating.Good, when)
    assert card.fsrs["stability"] == pytest.approx(expected.stability)
    assert card.due_at() == expected.due.replace(microsecond=0)
    progress.save()
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "fsrs", None)
        schedule.fsrs_module.cache_clear()
        progress = Progress.load()
        assert progress.kind == Kind.LEITNER and progress.cards["a"].box == 4
        assert progress.cards["a"].due_at() == card.due_at()  # FSRS's date stands until the next answer
        assert progress.record("a", True, T0 + timedelta(days=30)).fsrs is None
    schedule.fsrs_module.cache_clear()


class Timer:
    """A stopwatch the test moves: each question takes ``seconds``."""

    def __init__(self, seconds):
        self.now, self.seconds, self.started = 0.0, seconds, False

    def __call__(self):
        self.now += self.seconds if self.started else 0.0
        self.started = not self.started
        return self.now


@pytest.mark.parametrize("seconds,rating", [(2.0, Rating.EASY), (300.0, Rating.GOOD)])
def test_a_live_answer_is_easy_when_fast(with_fsrs, seconds, rating):
    questions = plan(count=1)
    bank, out = load_bank([MINI]), io.StringIO()
    source = LineSource(io.StringIO(right_answer(questions[0]) + "\n"), out, echo=False)  # typed live
    session = Session(bank, Settings((), 1, SEED), Progress.load(), source, out, lambda: T0, timer=Timer(seconds))
    assert session.run() == 0
    card = Progress.load().cards[questions[0].id]
    assert card.history[-1].rating == rating and card.history[-1].seconds == seconds
    assert ("Right (and fast: rated easy)." in out.getvalue()) == (rating == Rating.EASY)


def test_piped_answers_are_never_easy(with_fsrs):
    questions = plan(count=3)
    status, out, _ = run(["-n", "3", "--seed", str(SEED)], [right_answer(q) for q in questions])
    assert status == 0 and "rated easy" not in out
    cards = Progress.load().cards
    assert [cards[q.id].history[-1].rating for q in questions] == [Rating.GOOD] * 3
    assert all(cards[q.id].history[-1].seconds is None for q in questions)
