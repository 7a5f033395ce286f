"""The progress file: today's (first-format, Leitner-only) file is upgraded without losing history; a damaged
file is set aside with a clear message and nothing in it lost."""
import json
from datetime import timedelta

import pytest

from attnkit import userdata
from attnkit.quiz.progress import FILENAME, Progress, default_path, parse
from attnkit.quiz.schedule import Kind, Rating

from .test_quiz_session import SEED, T0, plan, right_answer, run

FIRST_FORMAT = {
    "format": "attnkit-quiz-progress", "version": 1,
    "cards": {
        "mini-single": {"box": 3, "due": "2025-03-04T09:00:00Z", "reviews": 4, "lapses": 1,
                        "last": "2025-03-01T09:00:00Z", "why": ""},
        "mini-numeric": {"box": 1, "due": "2025-02-28T09:00:00Z", "reviews": 2, "lapses": 2,
                         "last": "2025-02-28T09:00:00Z", "why": ""},
        "mini-short": {"box": 1, "due": "2025-03-01T08:00:00Z", "reviews": 0, "lapses": 0, "last": "",
                       "why": "attention_no_scale"},
    },
    "sessions": [{"at": "2025-02-20T09:00:00Z", "seed": 1, "asked": 3, "right": 2, "stopped": "", "review": False}],
}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def write_legacy(home, data) -> str:
    """A progress file where today's attnkit writes it (the home folder itself, no course folder)."""
    home.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1)
    (home / FILENAME).write_text(text)
    return text


def kept(card):
    return card.box, card.due, card.reviews, card.lapses, card.last, card.why


@pytest.mark.parametrize("installed", [True, False])
def test_todays_file_is_moved_into_the_course_and_upgraded_without_losing_history(home, installed, request):
    request.getfixturevalue("with_fsrs" if installed else "without_fsrs")
    original = write_legacy(home, FIRST_FORMAT)
    progress = Progress.load()
    path = default_path()
    assert progress.path == path and path.parent == home / "courses" / userdata.course().key
    assert not (home / FILENAME).exists() and path.with_name(f"{FILENAME}.v1").read_text() == original
    assert f"was moved to this course ({userdata.course().label})" in progress.notice
    assert "quiz progress upgraded: 3 questions keep their due dates, answer counts and boxes" in progress.notice
    for qid, raw in FIRST_FORMAT["cards"].items():
        assert kept(progress.cards[qid]) == tuple(raw[k] for k in ("box", "due", "reviews", "lapses", "last", "why"))
    assert progress.sessions == FIRST_FORMAT["sessions"]
    seeded = progress.cards["mini-single"].fsrs
    if installed:  # box 3: FSRS's review state with a 3-day stability, last reviewed when the box says
        assert (seeded["state"], seeded["stability"]) == (2, 3.0) and seeded["last_review"].startswith("2025-03-01")
        assert progress.cards["mini-numeric"].fsrs is None  # last answered wrong: FSRS starts it as new
    else:
        assert seeded is None
    progress.save()
    again = Progress.load()
    assert again.notice is None and {q: kept(c) for q, c in again.cards.items()} == {
        q: kept(c) for q, c in progress.cards.items()}
    assert json.loads(path.read_text())["version"] == 2


def test_an_upgraded_card_is_reviewed_by_fsrs_from_its_box(home, with_fsrs):
    write_legacy(home, FIRST_FORMAT)
    progress = Progress.load()
    card = progress.record("mini-single", Rating.GOOD, parse("2025-03-04T09:00:00Z"))
    assert card.reviews == 5 and card.box == 4 and card.fsrs["stability"] > 3.0
    assert card.due_at() - parse("2025-03-04T09:00:00Z") > timedelta(days=3)


def test_the_upgrade_keeps_the_queue_of_diagnosed_mistakes(home, with_fsrs):
    write_legacy(home, FIRST_FORMAT)
    assert Progress.load().due(T0)[0] == "mini-short"  # queued by a mistake: first


def test_a_session_on_todays_file_says_what_happened_and_keeps_the_old_file(home, with_fsrs):
    write_legacy(home, FIRST_FORMAT)
    questions = plan(count=1)
    status, out, err = run(["-n", "1", "--seed", str(SEED)], [right_answer(questions[0])])
    assert status == 0 and err == ""
    assert "note: " in out and "quiz progress upgraded" in out and "kept as quiz-progress.json.v1" in out
    data = json.loads(default_path().read_text())
    assert data["version"] == 2 and data["scheduler"] == "fsrs" and len(data["sessions"]) == 2
    assert set(FIRST_FORMAT["cards"]) <= set(data["cards"])


def test_one_damaged_card_costs_only_that_card_and_the_file_is_kept(home, monkeypatch):
    data = json.loads(json.dumps(FIRST_FORMAT))
    data["cards"]["mini-numeric"]["box"] = 9
    data["cards"]["mini-short"]["due"] = "next tuesday"
    data["cards"]["mini-multiple"] = dict(data["cards"]["mini-single"], reviews="four")
    original = write_legacy(home, data)
    progress = Progress.load()
    assert set(progress.cards) == {"mini-single"}
    assert "question 'mini-numeric' is unreadable (box 9)" in progress.notice
    assert "question 'mini-short' is unreadable" in progress.notice
    assert "question 'mini-multiple' is unreadable (answer counts 'four' and 1)" in progress.notice
    assert "the others keep their progress" in progress.notice
    monkeypatch.setattr("attnkit.quiz.progress.now_utc", lambda: T0 + timedelta(hours=1))
    assert "unreadable" in Progress.load().notice  # loading again an hour later: the same copy, not a second one
    backups = list(default_path().parent.glob(f"{FILENAME}.corrupt-*"))
    assert len(backups) == 1 and backups[0].read_text() == original


@pytest.mark.parametrize("text,reason", [
    ('{"format": "attnkit-quiz-progress", "cards": {', "is corrupted"),
    ('["not", "progress"]', "not an attnkit-quiz-progress file"),
    ('{"format": "attnkit-quiz-progress", "version": 7, "cards": {}}', "format version 7; this attnkit reads"),
])
def test_an_unreadable_file_is_set_aside_with_a_clear_message(home, text, reason):
    default_path().parent.mkdir(parents=True)
    default_path().write_text(text)
    status, out, err = run(["--stats"], [])
    assert status == 0 and "Traceback" not in out + err
    assert reason in out and "nothing was lost: a copy was kept as quiz-progress.json.corrupt-" in out
    assert next(default_path().parent.glob(f"{FILENAME}.corrupt-*")).read_text() == text
    assert default_path().read_text() == text  # --stats writes nothing; the next answer writes a fresh file


def test_stats_name_the_leitner_fallback(home, without_fsrs):
    status, out, _ = run(["--stats"], [])
    assert status == 0 and "scheduling: Leitner boxes; `pip install fsrs` schedules with FSRS" in out
    assert Progress.load().kind == Kind.LEITNER
