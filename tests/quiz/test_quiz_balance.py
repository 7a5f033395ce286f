"""Exports do not give the answer away by its place: the right answers spread over the option positions."""
from collections import Counter

import pytest

from attnkit.quiz import exporting
from attnkit.quiz.bank import load_bank
from attnkit.quiz.exporting import FORMATS, render

from .positions import correct_positions

LIMIT = 0.40  # no option position may hold more than this share of the right answers


def shares(fmt, questions):
    positions = correct_positions(fmt, render(questions, fmt, variants=2))
    return len(positions), Counter(positions)


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_option_position_holds_more_than_40_percent_of_the_right_answers(fmt):
    total, counts = shares(fmt, load_bank().questions)
    assert total >= 60  # the parser found the options of every choice question
    assert max(counts.values()) <= LIMIT * total, sorted(counts.items())


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_position_count_sees_the_written_order_bias(fmt, monkeypatch):
    monkeypatch.setattr(exporting, "arranged", lambda question: question)
    total, counts = shares(fmt, load_bank().questions)
    assert counts[0] > LIMIT * total  # authors write the right answer first: the shuffle is what fixes it


def test_export_order_depends_only_on_the_question_id():
    questions = [q for q in load_bank().questions if q.type in ("single", "multiple") and not q.pinned]
    together = {entry.id: entry.choices for entry in exporting.expand(questions)}
    for question in questions:
        (alone,) = exporting.expand([question])
        assert alone.choices == together[question.id]
        assert sorted(alone.choices) == sorted(question.choices)
    assert any(together[q.id] != q.choices for q in questions)
