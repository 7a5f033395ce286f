"""Scripted sessions end to end: score, explanations, missed list, progress, review, Ctrl-C, corruption."""
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from attnkit.quiz import main
from attnkit.quiz.bank import load_bank
from attnkit.quiz.grading import instantiate, present, variant_seed
from attnkit.quiz.progress import Progress, default_path
from attnkit.quiz.session import Session, Settings

MINI = str(Path(__file__).parent / "fixtures" / "mini.yaml")
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
SEED = 11


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def plan(seed=SEED, count=7, review=False, when=T0):
    """The questions a session will ask, in order (same selection code as the session)."""
    bank = load_bank([MINI])
    session = Session(bank, Settings((), count, seed, review), Progress.load(), None, io.StringIO(), lambda: when)
    return session.choose()


def right_answer(question, seed=SEED):
    asked = present(instantiate(question, variant_seed(seed, question.id)), seed)
    concrete = asked.question
    if concrete.type == "single":
        return str(asked.options.index(concrete.answer) + 1)
    if concrete.type == "multiple":
        return ",".join(str(i + 1) for i, option in enumerate(asked.options) if option in concrete.answer)
    if concrete.type == "true_false":
        return "t" if concrete.answer else "f"
    if concrete.type == "ordering":
        return " ".join(str(asked.options.index(item) + 1) for item in concrete.answer)
    if concrete.type == "numeric":
        return str(concrete.answer)
    return "  SOFT   max " if concrete.id == "mini-short" else concrete.answer[0]


def wrong_answer(question):
    if question.type == "ordering":
        return " ".join(reversed(right_answer(question).split()))
    wrong = {"true_false": "f" if question.answer else "t", "numeric": "-12345", "short": "cosine"}
    return wrong.get(question.type, "")


def run(argv, lines, when=T0):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv + ["--bank", MINI], stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
                  stdout=out, stderr=err, clock=lambda: when)
    return status, out.getvalue(), err.getvalue()


def scripted_answers(questions, n_right):
    answers = []
    for index, question in enumerate(questions):
        if index < n_right:
            answers.append(right_answer(question))
        else:
            answer = wrong_answer(question)
            if question.type in ("single", "multiple"):
                asked = present(question, SEED)
                answer = str(next(i + 1 for i, o in enumerate(asked.options)
                                  if (o != question.answer if question.type == "single" else o not in question.answer)))
            answers.append(answer)
    return answers


def test_scripted_session_scores_explains_and_saves(home):
    questions = plan()
    status, out, err = run(["-n", "7", "--seed", str(SEED)], scripted_answers(questions, 4))
    assert status == 0 and err == ""
    assert "Score: 4/7 (57%)" in out and "concepts         4/7" in out
    assert out.count("Why: ") == 7 and out.count("Source: ") == sum(bool(q.source.paper) for q in questions) > 0
    assert ".txt" not in out  # a seed document has no title to cite: no source line names its file
    missed = out.split("Missed (3):")[1]
    for question in questions[4:]:
        assert f"- {question.id}:" in missed
    assert all(len(line) <= 80 for line in out.splitlines() if line != f"  {default_path()}")
    data = json.loads(default_path().read_text())
    assert {qid: card["box"] for qid, card in data["cards"].items()} == {
        **{q.id: 2 for q in questions[:4]}, **{q.id: 1 for q in questions[4:]}}
    assert data["sessions"][-1]["right"] == 4


def test_without_fsrs_progress_reloads_and_review_honours_the_leitner_schedule(home, without_fsrs):
    questions = plan()
    run(["-n", "7", "--seed", str(SEED)], scripted_answers(questions, 4))
    progress = Progress.load()
    assert len(progress.cards) == 7
    missed = [q.id for q in questions[4:]]
    assert sorted(progress.due(T0 + timedelta(minutes=5))) == sorted(missed)
    later = T0 + timedelta(minutes=5)
    review = plan(review=True, when=later)
    assert sorted(q.id for q in review) == sorted(missed)
    status, out, _ = run(["--review", "--seed", str(SEED)], [right_answer(q) for q in review], when=later)
    assert status == 0 and "Score: 3/3" in out and "review" in out
    progress = Progress.load()
    assert all(progress.cards[qid].box == 2 for qid in missed)
    assert progress.due(later) == []
    status, out, _ = run(["--review"], [], when=later)
    assert status == 0 and "Nothing is due for review" in out
    two_days = T0 + timedelta(days=2)
    assert len(plan(review=True, when=two_days)) == 7


def test_exam_mode_holds_explanations_until_the_end():
    questions = plan(count=3)
    status, out, _ = run(["-n", "3", "--seed", str(SEED), "--exam"], [right_answer(q) for q in questions])
    head, tail = out.split("Answers and explanations")
    assert "Why: " not in head and "(answer recorded)" in head
    assert tail.count("Why: ") == 3 and "Score: 3/3" in tail


def test_answers_file_and_unreadable_answers(tmp_path):
    questions = plan(count=2)
    answers = tmp_path / "answers.txt"
    answers.write_text(f"{right_answer(questions[0])}\nnot-a-number-or-choice\n")
    status, out, _ = run(["-n", "2", "--seed", str(SEED), "--answers", str(answers)], [])
    assert status == 0 and "Score: 1/2" in out
    assert "answer> " + right_answer(questions[0]) in out
    status, _, err = run(["--answers", str(tmp_path / "missing.txt")], [])
    assert status == 2 and "cannot read answers file" in err and "Traceback" not in err


class Interrupting(io.StringIO):
    def __init__(self, lines, stop_after):
        super().__init__("".join(f"{line}\n" for line in lines))
        self.calls, self.stop_after = 0, stop_after

    def readline(self, *args):
        self.calls += 1
        if self.calls > self.stop_after:
            raise KeyboardInterrupt
        return super().readline(*args)


def test_ctrl_c_ends_cleanly_with_progress_saved(home):
    questions = plan()
    out = io.StringIO()
    stdin = Interrupting([right_answer(q) for q in questions], stop_after=2)
    status = main(["-n", "7", "--seed", str(SEED), "--bank", MINI], stdin=stdin, stdout=out, clock=lambda: T0)
    text = out.getvalue()
    assert status == 130
    assert "interrupted after 2 of 7 questions" in text and "Score: 2/2" in text
    data = json.loads(default_path().read_text())
    assert set(data["cards"]) == {q.id for q in questions[:2]} and data["sessions"][-1]["stopped"] == "interrupted"


def test_input_ending_early_keeps_what_was_answered(home):
    questions = plan()
    status, out, _ = run(["-n", "7", "--seed", str(SEED)], [right_answer(questions[0])])
    assert status == 0 and "input ended after 1 of 7 questions" in out
    assert len(Progress.load().cards) == 1


def test_corrupted_progress_file_is_backed_up_not_fatal(home):
    broken = default_path()
    broken.parent.mkdir(parents=True)
    broken.write_text('{"format": "attnkit-quiz-progress", "cards": {')
    questions = plan(count=1)
    status, out, err = run(["-n", "1", "--seed", str(SEED)], [right_answer(questions[0])])
    assert status == 0 and "Traceback" not in out + err
    assert "is corrupted" in out and "a copy was kept as quiz-progress.json.corrupt-" in out
    backups = list(broken.parent.glob("quiz-progress.json.corrupt-*"))
    assert len(backups) == 1 and backups[0].read_text().endswith('"cards": {')
    assert json.loads(broken.read_text())["format"] == "attnkit-quiz-progress"


def test_same_seed_same_session():
    first = run(["-n", "4", "--seed", "5"], ["1"] * 4)[1]
    second = run(["-n", "4", "--seed", "5"], ["1"] * 4)[1]
    strip = lambda text: text.split("\nScore")[0]  # noqa: E731
    assert strip(first) == strip(second)


def test_topic_filter_and_generated_variant_in_session():
    status, out, _ = run(["-n", "7", "--seed", "3", "--topic", "concepts"], ["1"] * 7)
    assert status == 0 and "MB of one head's float32 n x n matrix for n = " in out and "{n}" not in out


def test_a_card_of_a_question_no_bank_has_is_neither_tracked_nor_due(home):
    """A bank revision removes questions (duplicates, wrong ones): their old cards must not count as due forever."""
    questions = plan(count=1)
    progress = Progress.load()
    progress.record("a-removed-question", False, when=T0)  # due at once, in box 1
    progress.save()
    status, out, _ = run(["-n", "1", "--seed", str(SEED)], [right_answer(questions[0])])
    assert status == 0 and "Progress saved (1 question tracked, 0 due now;" in " ".join(out.split())
