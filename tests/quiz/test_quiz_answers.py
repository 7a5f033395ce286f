"""Answer forms people type: each form is read as a value, so right answers in any spelling match and wrong
ones do not."""
import io
from datetime import datetime, timezone

import pytest

from attnkit.quiz import answers
from attnkit.quiz.answers import Form, Unreadable
from attnkit.quiz.bank import Bank, load_bank
from attnkit.quiz.grading import BadAnswer, mark, present
from attnkit.quiz.model import Question, Source
from attnkit.quiz.progress import Progress
from attnkit.quiz.session import LineSource, Session, Settings

NEW_YEAR = datetime(2026, 1, 1, tzinfo=timezone.utc)


def short(form, answer):
    return Question(id="q", topic="softmax", type="short", prompt="?", explanation="!", source=Source("", ""),
                    difficulty="easy", answer=(answer,), form=form)


def marked(question, typed):
    return mark(present(question, 0), typed)[0]


@pytest.mark.parametrize("typed", ["O(n^2 d)", "O(d*n^2)", "O(n**2 d)", r"O(n^2 \cdot d)", "O(n·n·d)",
                                   "O(n^2 * d)", "O(n²d)", "O(d n²)", "n^2 d", "O(N^2 D)", "Θ(n^{2} d)", "O(2 n^2 d)"])
def test_big_o_in_any_order_and_notation_is_right(typed):
    assert marked(short(Form.BIG_O, "O(n^2 d)"), typed)


@pytest.mark.parametrize("typed", ["O(n d)", "O(n^2)", "O(n^3 d)", "O(n d^2)", "O(n^2 d + n)", "O(n^2 / d)"])
def test_a_different_big_o_is_wrong(typed):
    assert not marked(short(Form.BIG_O, "O(n^2 d)"), typed)


def test_big_o_reads_logs_sums_and_constants():
    assert answers.big_o("O(n log n)") == answers.big_o("O(log(n) * n)")
    assert answers.big_o("O(n^2 + n d)") == answers.big_o("O(d n + n*n)")
    assert answers.big_o("O(1)") == answers.big_o("O(42)") != answers.big_o("O(n)")


@pytest.mark.parametrize("typed", ["O(n^2 d", "O(n^2 ? d)", "O()", "x" * 300])
def test_unreadable_big_o_says_what_to_type(typed):
    with pytest.raises(BadAnswer, match="big-O"):
        marked(short(Form.BIG_O, "O(n^2 d)"), typed)


@pytest.mark.parametrize("typed", ["(10, 32)", "[10, 32]", "10x32", "10 × 32", "10 by 32", "(10,32)", "10, 32"])
def test_shape_in_any_spelling_is_right(typed):
    assert marked(short(Form.SHAPE, "(10, 32)"), typed)


@pytest.mark.parametrize("typed", ["(32, 10)", "(10, 32, 1)", "(10,)", "(1, 10, 32)"])
def test_a_different_shape_is_wrong_order_matters(typed):
    assert not marked(short(Form.SHAPE, "(10, 32)"), typed)


@pytest.mark.parametrize("typed", ["0, 1, 2", "[0, 1, 2]", "2 1 0", "{0, 1, 2}", "0; 1 and 2", "(2,0,1)"])
def test_set_in_any_order_is_right(typed):
    assert marked(short(Form.SET, "0, 1, 2"), typed)


@pytest.mark.parametrize("typed", ["0, 1", "0, 1, 2, 3", "1, 2, 3"])
def test_a_different_set_is_wrong(typed):
    assert not marked(short(Form.SET, "0, 1, 2"), typed)


@pytest.mark.parametrize("form,typed", [(Form.SHAPE, "ten by thirty-two"), (Form.SET, "0, 1, ²"),
                                        (Form.SHAPE, "(10, 3.5)")])
def test_unreadable_shapes_and_sets_say_what_to_type(form, typed):
    with pytest.raises(BadAnswer, match="integers"):
        marked(short(form, "(10, 32)"), typed)


def test_text_answers_ignore_case_and_spaces_only():
    question = short(Form.TEXT, "softmax")
    assert marked(question, " Soft Max ") and not marked(question, "sigmoid")


def numeric(answer, tolerance=0.0):
    return Question(id="n", topic="softmax", type="numeric", prompt="?", explanation="!", source=Source("", ""),
                    difficulty="easy", answer=float(answer), tolerance=tolerance)


@pytest.mark.parametrize("typed", ["4096", "4,096", "4 096", "4_096", "4096.0"])
def test_numbers_with_thousands_separators_are_right(typed):
    assert marked(numeric(4096), typed)


def test_grouped_millions_and_decimals():
    assert answers.number("16,777,216") == 16777216 and answers.number("1,234.5") == 1234.5
    assert not marked(numeric(4096), "4,095")


@pytest.mark.parametrize("typed", ["4,5", "40,96", "4,0960", "4,096 MB", "nan", "inf", "1" * 300])
def test_ambiguous_or_non_numbers_are_refused_with_a_hint(typed):
    with pytest.raises(BadAnswer, match="number"):
        marked(numeric(4096), typed)


@pytest.mark.parametrize("form,written", [(Form.SHAPE, "(10, 32)"), (Form.SET, "0, 1, 2"),
                                          (Form.BIG_O, "O(n^2 d)"), (Form.BIG_O, "O(n log n)")])
def test_every_spelling_an_export_lists_reads_back_as_the_same_value(form, written):
    spelled = answers.spellings(form, written)
    assert len(spelled) >= 6 and len(set(spelled)) == len(spelled)
    assert {answers.read(form, each) for each in spelled} == {answers.read(form, written)}


def test_unreadable_is_a_value_error_naming_the_form():
    with pytest.raises(Unreadable, match="shape"):
        answers.shape("abc")



@pytest.mark.parametrize("qid,hint", [
    ("position-2-sees", "(type the numbers in any order, e.g. 0, 4)"),
    ("qa5-complexity", "(type a big-O expression, e.g. O(n^2 d), factors in any order)"),
    ("softmax-role", "(type a short answer (case and spaces do not matter))")])
def test_a_session_says_how_to_type_each_answer_form(tmp_path, monkeypatch, qid, hint):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path))
    bank = Bank((load_bank().get(qid),), ("bank.yaml",))
    out = io.StringIO()
    answers_in = LineSource(io.StringIO("x\n"), out, True)
    Session(bank, Settings(count=1, seed=1), Progress.load(), answers_in, out, lambda: NEW_YEAR).run()
    assert hint in out.getvalue()


def test_a_choice_number_means_that_choice_even_when_choices_are_numbers():
    """Choices shown as 1: '0', 2: '1', 3: 'sum': typing 1 is the first shown ('0', not the choice '1'); a choice's
    text that is not a choice number ('sum', '0') is read as that choice."""
    from attnkit.quiz.grading import Asked

    question = Question(id="s", topic="softmax", type="single", prompt="?", explanation="!", source=Source("", ""),
                        difficulty="easy", choices=("0", "1", "sum"), answer="0")
    asked = Asked(question, ("0", "1", "sum"))
    assert mark(asked, "1") == (True, "0") and mark(asked, "2") == (False, "1")
    assert mark(asked, "sum") == (False, "sum") and mark(asked, "0") == (True, "0")
