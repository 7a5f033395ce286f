"""The end of a session: the score line rounds to the nearest percent; the "Missed" list shows each missed
prompt whole, a multi-line one included, never cut mid-sentence."""
import io

import pytest

from attnkit.quiz import main
from attnkit.quiz.bank import load_bank
from attnkit.quiz.progress import Progress
from attnkit.quiz.session import Session, Settings, percent_of

from .test_quiz_session import T0

MULTI_LINE = ("Tokens are numbered from 0. With d_k = 2,\\nQ = [[1, 0], [0, 1]]\\n(rows are tokens). "
              "What is the weight of token 0 on token 1? Answer true if it is below one half.")


def bank(tmp_path, count=9):
    """``count`` true/false questions, all true; the first has a prompt of three lines."""
    lines = ["topic: concepts", "questions:"]
    for index in range(count):
        prompt = f'"{MULTI_LINE}"' if index == 0 else f"Statement number {index} is true."
        lines += [f"  - id: tf-{index}", "    topic: concepts", "    type: true_false", f"    prompt: {prompt}",
                  "    answer: true", "    explanation: It is.",
                  '    source: {file: 002_5d842bf762d216d9.txt, section: "Summary"}', "    difficulty: easy"]
    path = tmp_path / "tf.yaml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))


@pytest.mark.parametrize("part,whole,percent", [(7, 9, 78), (2, 3, 67), (1, 3, 33), (1, 8, 13), (4, 7, 57),
                                                (0, 5, 0), (5, 5, 100), (1, 200, 1), (1, 201, 0)])
def test_percentages_round_to_the_nearest_half_up(part, whole, percent):
    assert percent_of(part, whole) == percent


def test_the_score_line_rounds_and_missed_prompts_are_whole(tmp_path):
    path = bank(tmp_path)
    order = Session(load_bank([path]), Settings((), 9, 1), Progress.load(), None, io.StringIO(), lambda: T0).choose()
    wrong = {"tf-0", next(q.id for q in order if q.id != "tf-0")}
    answers = "".join("f\n" if q.id in wrong else "t\n" for q in order)
    out = io.StringIO()
    status = main(["-n", "9", "--seed", "1", "--bank", path], stdin=io.StringIO(answers), stdout=out, clock=lambda: T0)
    text = out.getvalue()
    assert status == 0 and "Score: 7/9 (78%)" in text
    missed = text.split("Missed (2):")[1].split("Progress saved")[0]
    words = " ".join(missed.split())
    assert ("- tf-0: Tokens are numbered from 0. With d_k = 2, Q = [[1, 0], [0, 1]] (rows are tokens). What is the "
            "weight of token 0 on token 1? Answer true if it is below one half.") in words
    assert "\n    Q = [[1, 0], [0, 1]]\n" in missed  # its lines kept, under the bullet
    assert all(len(line) <= 80 for line in missed.splitlines())
