"""A self-learner's three quiz days on a simulated clock, scheduled by FSRS: day 1 a session and a review of
what was missed, days 2 and 3 the reviews FSRS makes due; ``--stats`` at the end. The expected due dates come
from the ``fsrs`` package itself, replaying each question's recorded answers."""
import json
import time
from datetime import timedelta

import pytest

from attnkit.quiz.progress import Progress, default_path, parse

from .test_quiz_fsrs import fsrs_scheduler
from .test_quiz_session import SEED, T0, plan, run, scripted_answers

DAY1, DAY2, DAY3 = T0, T0 + timedelta(days=1, minutes=15), T0 + timedelta(days=2, minutes=15)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch, with_fsrs):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TZ", "UTC")  # --stats counts calendar days in the local zone
    time.tzset()
    yield tmp_path / "home"
    monkeypatch.undo()
    time.tzset()


def fsrs_due(states=None) -> dict:
    """Each question's due date as the fsrs package computes it from the answers the progress file records
    (and its FSRS card into ``states``)."""
    import fsrs

    oracle, due = fsrs_scheduler(), {}
    states = {} if states is None else states
    for qid, card in json.loads(default_path().read_text())["cards"].items():
        state = fsrs.Card(card_id=1, due=parse(card["history"][0]["at"]))
        for review in card["history"]:
            state, _ = oracle.review_card(state, fsrs.Rating(review["rating"]), parse(review["at"]))
        due[qid], states[qid] = state.due.replace(microsecond=0), state
        assert parse(card["due"]) == due[qid], qid
    return due


def review(when, right: int):
    """``attnkit quiz --review`` at ``when``, the first ``right`` answers right and the rest wrong."""
    questions = plan(count=10, review=True, when=when)
    status, out, err = run(["--review", "--seed", str(SEED)], scripted_answers(questions, right), when=when)
    assert status == 0 and err == ""
    return [q.id for q in questions], out


def test_three_quiz_days(home):
    first = plan(count=7)
    status, out, _ = run(["-n", "7", "--seed", str(SEED)], scripted_answers(first, 4), when=DAY1)
    assert status == 0 and "Score: 4/7 (57%)" in out
    right, missed = {q.id for q in first[:4]}, {q.id for q in first[4:]}
    due = fsrs_due()
    assert {due[q] for q in missed} == {DAY1 + timedelta(minutes=10)}  # FSRS's learning step
    assert min(due[q] for q in right) >= DAY1 + timedelta(days=1)      # Good on first sight: days, not minutes

    status, out, _ = run(["--review"], [], when=DAY1 + timedelta(minutes=5))
    assert "Nothing is due for review (topics: all); next review on 2025-03-01 09:10 UTC." in out
    asked, out = review(DAY1 + timedelta(minutes=15), right=3)  # day 1, a quarter of an hour on: what was missed
    assert set(asked) == missed and "Score: 3/3 (100%)" in out

    due = fsrs_due()
    asked, out = review(DAY2, right=2)  # day 2: what FSRS made due since; one of them missed again
    assert asked and set(asked) == {q for q, moment in due.items() if moment <= DAY2} == missed
    assert "Score: 2/3 (67%)" in out

    due = fsrs_due()
    expected = {q for q, moment in due.items() if moment <= DAY3}
    assert expected and len(expected) < 7  # at least day 2's missed question; never everything
    asked, out = review(DAY3, right=len(expected))
    assert set(asked) == expected and f"Score: {len(expected)}/{len(expected)} (100%)" in out
    assert all(moment > DAY3 for moment in fsrs_due().values())

    status, out, _ = run(["--stats"], [], when=DAY3)
    answers = 7 + 3 + 3 + len(expected)
    again = 3 + 3 + len(expected)  # answers to questions answered before: day 1's review onwards
    assert status == 0 and "(scheduling: FSRS)" in out
    assert f"7 questions tracked, {answers} answers recorded, 4 sessions" in out
    assert f"Retention: {again - 1}/{again} ({round(100 * (again - 1) / again)}%)" in out
    print(out)
    states = {}
    upcoming = sorted(fsrs_due(states).values())
    recall = [fsrs_scheduler().get_card_retrievability(s, DAY3) for s in states.values() if s.state == 2]
    assert len(recall) == 7 and 0.9 < sum(recall) / 7 < 1
    assert f"FSRS estimates that you would recall {round(100 * sum(recall) / 7)}% of the 7 questions you have " \
           "learned, today" in out
    days = [line.split() for line in out.split("Reviews due:")[1].splitlines()[1:] if line.startswith("    ")]
    counted = {" ".join(words[:-1]): int(words[-1]) for words in days}
    assert counted["now"] == 0 and sum(counted.values()) == 7
    assert counted["tomorrow"] == sum(moment.date() == (DAY3 + timedelta(days=1)).date() for moment in upcoming)
    assert Progress.load().due(DAY3) == []
