"""``attnkit quiz export --format html``: one self-contained page; the keys the page checks against; variants
rendered at export; readable without JavaScript; ``--exercises``."""
from __future__ import annotations

import html
import json
import re

import pytest

from attnkit.quiz import main
from attnkit.quiz.answers import Form
from attnkit.quiz.answers import text as normalise
from attnkit.quiz.bank import load_bank
from attnkit.quiz.export_html import answer_key, options_of, question_html, to_html
from attnkit.quiz.exporting import expand, render
from tests.report.pagecheck import fetches, text_without_scripts

from .test_quiz_export import MINI


@pytest.fixture(scope="module")
def shipped():
    return expand(load_bank().questions, 2)


ARTICLE = re.compile(r'<article class="q" id="q\d+" data-qid="([^"]+)".*?</article>', re.S)


def articles(page: str) -> dict[str, str]:
    """Question id -> its <article>."""
    return {m.group(1): m.group(0) for m in ARTICLE.finditer(page)}


def test_the_page_fetches_nothing(shipped):
    page = to_html(shipped)
    assert fetches(page) == []
    assert len(articles(page)) == len(shipped)


def test_keys_point_at_the_right_answers_as_listed(shipped):
    for question in shipped:
        options = options_of(question)
        key = answer_key(question, options)
        if question.type == "single":
            assert options[key] == question.answer
        elif question.type == "multiple":
            assert {options[i] for i in key} == set(question.answer)
        elif question.type == "true_false":
            assert options[key] == str(question.answer)
        elif question.type == "ordering":
            assert [item for _, item in sorted(zip(key, options))] == list(question.answer)
            assert options != list(question.answer)  # never listed solved
        elif question.type == "numeric":
            assert key == {"value": question.answer, "tolerance": question.tolerance}
        elif question.form is Form.TEXT:
            assert key == sorted({normalise(form) for form in question.answer})
        else:  # a shape, set or big-O answer is read as a value: the page leaves it to self-grading
            assert key is None


def test_the_options_are_listed_in_the_order_the_key_uses(shipped):
    for question in shipped:
        if question.type in ("single", "multiple", "true_false", "ordering"):
            shown = re.findall(r"(?:<input[^>]*>|</select>) (.*?)</label>", question_html(1, question), re.S)
            assert [html.unescape(s) for s in shown] == options_of(question), question.id


def test_generated_questions_are_rendered_at_export_with_fixed_seeds():
    page = render(load_bank([MINI]).questions, "html", variants=2)
    found = articles(page)
    assert sorted(q for q in found if q.startswith("mini-generated")) == ["mini-generated-v1", "mini-generated-v2"]
    prompts = {q: re.search(r'<div class="prompt">(.*?)</div>', found[q]).group(1) for q in found}
    assert prompts["mini-generated-v1"] != prompts["mini-generated-v2"]
    assert "{" not in prompts["mini-generated-v1"] and "{n}" not in page
    assert render(load_bank([MINI]).questions, "html", variants=2) == page  # the same bank, the same page


def test_without_javascript_every_answer_explanation_and_source_is_there(shipped):
    shown = text_without_scripts(to_html(shipped))
    for question in shipped[:40]:
        assert " ".join(question.explanation.split()) in shown
        assert question.source.line() in shown  # a paper by title and year; nothing for a seed document
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", shown)
    assert '<button type="submit" class="check" hidden>' in to_html(shipped[:1])


def test_text_is_escaped_and_an_unknown_type_is_self_graded(shipped):
    short = next(q for q in shipped if q.type == "short" and q.form is Form.TEXT)
    question = short.with_(prompt="<script>alert(1)</script>", explanation="a < b & c")
    page = to_html([question, question.with_(id="other", type="expression", answer="x**2")])
    assert page.count("<script>") == 1 and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    keys = [json.loads(html.unescape(k)) for k in re.findall(r'data-key="([^"]*)"', page)]
    assert keys[0] == sorted({normalise(f) for f in question.answer}) and keys[1] is None


def test_exercises_select_a_course_and_the_general_questions(tmp_path, capsys):
    out = tmp_path / "course.html"
    assert main(["export", "--format", "html", "--exercises", "softmax,masking", "-o", str(out)]) == 0
    topics = set(re.findall(r'<span class="meta">(\w+) ·', out.read_text()))
    assert topics == {"softmax", "masking", "concepts"}
    assert main(["export", "--format", "html", "--exercises", "sofmax", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert "--exercises: unknown exercise(s) 'sofmax'" in error and "Traceback" not in error
