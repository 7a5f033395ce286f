"""The quiz follows the code: diagnosed mistakes queue questions for --review; predict-then-run questions and
the gate ``attnkit check`` can consult; what a learner reads after a wrong answer."""
import io
import json
from datetime import timedelta

import pytest

from attnkit.quiz import gate, main
from attnkit.quiz.bank import load_bank
from attnkit.quiz.grading import Asked, BadAnswer, mark, present
from attnkit.quiz.progress import Progress, default_path, note_mistakes, questions_about
from attnkit.quiz.session import missed_choices

from .test_quiz_session import MINI, SEED, T0, right_answer, run


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def shipped(argv, lines, when=T0):
    """A session on the shipped banks (``run`` adds the fixture bank)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out, stderr=err,
                  clock=lambda: when)
    return status, out.getvalue(), err.getvalue()


def test_a_diagnosed_mistake_brings_its_questions_into_the_next_review(home):
    about = questions_about(["softmax_no_max_subtraction"])
    assert len(about) >= 2 and set(about.values()) == {"softmax_no_max_subtraction"}
    assert note_mistakes(["softmax_no_max_subtraction"], when=T0) == len(about)
    cards = Progress.load().cards
    assert {qid for qid, card in cards.items() if card.why} == set(about)
    status, out, err = shipped(["--review", "-n", "20", "--seed", str(SEED)], ["x"] * 20, when=T0)
    assert status == 0 and err == ""
    assert f"attnkit quiz: {len(about)} questions, review" in out
    assert out.count("(back because your code showed the mistake 'softmax_no_max_subtraction')") == len(about)
    assert not any(card.why for card in Progress.load().cards.values())  # answered: no longer flagged


def test_queued_questions_come_before_other_due_ones(home):
    progress = Progress.load()
    progress.record("qa1-purpose", False, T0 - timedelta(days=3))  # due since three days
    progress.save()
    note_mistakes(["causal_mask_triu"], when=T0)
    due = Progress.load().due(T0)
    flagged = set(questions_about(["causal_mask_triu"]))
    assert set(due[: len(flagged)]) == flagged and due[-1] == "qa1-purpose"


def test_nothing_to_note_writes_nothing(home):
    assert note_mistakes([]) == 0
    assert note_mistakes(["not_a_mistake_id"]) == 0
    assert not default_path().exists() and not home.exists()


def test_a_concept_tag_works_like_a_mistake_id(home):
    assert note_mistakes(["qa-table"], when=T0) == 5


def graded_student_json():
    check = {"exercise": "softmax", "name": "test_big", "title": "big inputs", "task": 1, "points": 0,
             "max_points": 2, "status": "failed", "message": "...", "mistake": "softmax_no_max_subtraction"}
    passed = dict(check, name="test_small", status="passed", mistake="", points=2)
    return {"student": "ada", "exercises": [{"exercise": "softmax", "checks": [check, passed]}], "problem": ""}


def gradescope_json():
    return {"score": 3, "tests": [
        {"name": "masking: causal", "tags": ["masking", "task 1", "causal_mask_triu"], "status": "failed"},
        {"name": "softmax: rows", "tags": ["softmax", "task 1"], "status": "passed"}]}


@pytest.mark.parametrize("data,mistake", [(graded_student_json(), "softmax_no_max_subtraction"),
                                          (gradescope_json(), "causal_mask_triu")])
def test_import_feedback_queues_the_mistakes_a_graded_json_names(tmp_path, data, mistake):
    path = tmp_path / "feedback.json"
    path.write_text(json.dumps(data))
    status, out, err = shipped(["--import-feedback", str(path)], [])
    queued = len(questions_about([mistake]))
    assert status == 0 and err == ""
    assert f"({mistake}); {queued} questions about them will come up in `attnkit quiz --review`" in out
    assert {qid for qid, card in Progress.load().cards.items() if card.why == mistake} == set(
        questions_about([mistake]))


def test_import_feedback_refuses_what_is_not_graded_feedback(tmp_path):
    broken = tmp_path / "notes.txt"
    broken.write_text("my notes")
    status, _, err = shipped(["--import-feedback", str(broken)], [])
    assert status == 1 and "is not JSON" in err and "attnkit grade" in err and "Traceback" not in err
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    status, _, err = shipped(["--import-feedback", str(other)], [])
    assert status == 1 and "not graded feedback" in err
    status, _, err = shipped(["--import-feedback", str(tmp_path / "missing.json")], [])
    assert status == 1 and "cannot read" in err
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"student": "bo", "exercises": []}))
    status, out, _ = shipped(["--import-feedback", str(clean)], [])
    assert status == 0 and "no classic mistake was diagnosed" in out


def test_predict_questions_open_the_gate_only_when_all_are_right(home):
    bank = load_bank()
    questions = gate.questions("softmax", bank)
    assert len(questions) == 3 and not gate.passed("softmax")
    assert gate.command("softmax") == "attnkit quiz --exercise softmax"
    answers = [right_answer(q) for q in questions]
    status, out, _ = shipped(["--exercise", "softmax", "--seed", str(SEED)], answers[:-1] + ["-5"])
    assert status == 0 and "predict, then run" in out and "Not yet: 1 question of softmax" in out
    assert gate.missing("softmax") == [questions[-1].id] and not gate.passed("softmax")
    status, out, _ = shipped(["--exercise", "softmax", "--seed", str(SEED)], answers)
    assert "All predictions right. Now run `attnkit check softmax`" in out
    assert gate.passed("softmax") and not gate.passed("masking")


def test_predict_questions_exist_for_every_exercise_and_the_cli_checks_the_name(capsys):
    assert main(["--exercise", "nope"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def asked_multiple():
    question = next(q for q in load_bank().questions if q.id == "softmax-properties")
    return Asked(question, tuple(reversed(question.choices)))


def test_a_wrong_multiple_answer_names_the_missed_choice_by_its_screen_number():
    asked = asked_multiple()  # screen: 1) Adding the same constant ..., 2) ... divided by their sum, 3) Every weight
    given = "; ".join(asked.options[3:])  # chose 4) and 5), the right ones
    assert missed_choices(asked, given) == ("Answer: 4) A larger score never gets a smaller weight; 5) The weights sum "
                                            "to 1, up to rounding")
    text = missed_choices(asked, asked.options[4])  # chose 5) only, missed 4)
    assert text.startswith("You missed 4) A larger score never gets a smaller weight.")
    wrong = missed_choices(asked, "; ".join(asked.options[2:]))
    assert "Not right: 3) Every weight is greater than 0, however negative its score." in wrong


def test_x_at_a_single_choice_question_gets_a_single_choice_example():
    question = load_bank([MINI]).get("mini-single")
    asked = present(question, SEED)
    with pytest.raises(BadAnswer, match=r"^type the number of one choice, between 1 and 3, e\.g\. 2$"):
        mark(asked, "x")
    with pytest.raises(BadAnswer, match=r"^choose exactly one number, e\.g\. 2$"):
        mark(asked, "1,3")
    status, out, _ = run(["-n", "8", "--seed", str(SEED)], ["x"] * 8)
    assert "? type the number of one choice, between 1 and 3, e.g. 2; counted as wrong" in out


def test_one_question_is_singular():
    status, out, _ = run(["-n", "1", "--seed", str(SEED)], ["x"])
    assert "attnkit quiz: 1 question, practice" in out and "1 questions" not in out


def test_exam_mode_wraps_long_answers_at_word_boundaries():
    long_answer = " ".join(["softmax"] * 30)
    status, out, _ = run(["-n", "8", "--seed", str(SEED), "--exam"], [long_answer] * 8)
    lines = [line for line in out.splitlines() if not line.startswith("answer> ")]  # the typed input echoed
    assert all(len(line) <= 80 for line in lines if not line.lstrip().startswith("/"))
    words = {word for line in lines for word in line.split()}
    assert not any(word.startswith("softma") and word.strip("'\",") not in ("softmax", "softmax)")
                   for word in words), "a word was cut at the margin"
