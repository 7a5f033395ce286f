"""One offline quiz page (``attnkit quiz export --format html``): every question answerable in the browser.

The page applies ``attnkit quiz``'s answer rules (:func:`attnkit.quiz.grading.mark`): one choice, the exact set
of choices, every position once and in order, a number within the tolerance, a short answer compared after
removing whitespace and case. Two things are not checked in the page but shown for self-grading against the
model answer: a typed answer holding any non-ASCII character (Python's case folding, whitespace and digits go
beyond what the browser's rules match character for character), and a question type the page does not know.
Generated questions arrive here already instantiated with fixed seeds (:func:`exporting.expand`).
The review schedule (the Leitner boxes of :mod:`attnkit.quiz.progress`) is kept in the browser's local storage.
Everything is escaped; the page needs no network (CSS and JavaScript inline).
"""
from __future__ import annotations

import json
from html import escape
from importlib import resources

from . import answers
from .arrange import listed_items
from .model import TYPE_LABELS, Form, Question, format_number
from .schedule import LEITNER_DAYS

TITLE = "attnkit quiz: self-attention"
STORAGE_KEY = "attnkit-quiz-review"
CHECKED = ("single", "multiple", "true_false", "numeric", "short", "ordering")


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def options_of(question: Question) -> list[str]:
    """The options as the page lists them (choices in export order, True/False, ordering items never solved)."""
    if question.type == "true_false":
        return ["True", "False"]
    if question.type == "ordering":
        return listed_items(question)
    return list(question.choices)


def answer_key(question: Question, options: list[str]):
    """What the page's script compares an answer with, in terms of the options as listed."""
    if question.type == "single":
        return options.index(question.answer)
    if question.type == "true_false":
        return 0 if question.answer else 1
    if question.type == "multiple":
        return sorted(options.index(choice) for choice in question.answer)
    if question.type == "ordering":
        return [question.answer.index(item) + 1 for item in options]  # each listed item's right position
    if question.type == "numeric":
        return {"value": float(question.answer), "tolerance": float(question.tolerance)}
    if question.type == "short" and question.form is Form.TEXT:
        return sorted({answers.text(form) for form in question.answer})
    return None  # a shape, a set or a big-O expression is read as a value: shown for self-grading in the page


def _inputs(number: int, question: Question, options: list[str]) -> str:
    name = f"a{number}"
    if question.type in ("single", "true_false", "multiple"):
        kind = "checkbox" if question.type == "multiple" else "radio"
        return "".join(f'<label class="option"><input type="{kind}" name="{name}" value="{i}"> {escape(option)}'
                       "</label>" for i, option in enumerate(options))
    if question.type == "ordering":
        positions = "".join(f"<option>{p}</option>" for p in range(1, len(options) + 1))
        return ('<p class="how">Give each item its position (1 = first).</p>'
                + "".join(f'<label class="option"><select name="{name}" data-item="{i}"><option value="">-</option>'
                          f"{positions}</select> {escape(option)}</label>" for i, option in enumerate(options)))
    hint = "a number, e.g. 0.418 (no units)" if question.type == "numeric" else "your answer"
    return f'<input class="typed" type="text" name="{name}" autocomplete="off" placeholder="{hint}">'


def model_answer(question: Question) -> str:
    text = question.answer_text()
    if question.type == "short" and len(question.answer) > 1:
        text += " (also accepted: " + "; ".join(question.answer[1:]) + ")"
    return text


def question_html(number: int, question: Question) -> str:
    options = options_of(question)
    key = answer_key(question, options) if question.type in CHECKED else None
    label = TYPE_LABELS.get(question.type, question.type)
    return (f'<article class="q" id="q{number}" data-qid="{escape(question.id)}" data-type="{escape(question.type)}" '
            f'data-key="{escape(json.dumps(key))}"><h3>{number}. <span class="meta">{escape(question.topic)} · '
            f'{escape(label)} · {escape(question.difficulty)}</span> <span class="status"></span></h3>'
            f'<div class="prompt">{escape(question.prompt)}</div><form class="answer">'
            f'{_inputs(number, question, options)}<button type="submit" class="check" hidden>Check</button></form>'
            '<p class="verdict" aria-live="polite"></p><p class="selfgrade" hidden>Compare with the model answer '
            'below: <button type="button" data-right="1">I was right</button> '
            '<button type="button" data-right="0">I was wrong</button></p>'
            '<details class="solution"><summary>Answer, explanation and source</summary>'
            f'<p><strong>Answer:</strong> {escape(model_answer(question))}</p>'
            f'<div class="explanation">{escape(question.explanation)}</div>'
            + (f'<p class="source">{escape(question.source.line())}</p>' if question.source.line() else "")
            + '</details></article>')


def to_html(questions) -> str:
    """The page for ``questions`` (already expanded, in export order)."""
    questions = list(questions)
    intervals = {box: days * 86400.0 for box, days in LEITNER_DAYS.items()}  # the page keeps Leitner boxes
    body = "".join(question_html(number, question) for number, question in enumerate(questions, 1))
    tolerance = format_number(1e-9)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(TITLE)}</title><style>{_asset('export_html.css')}</style></head>"
            f'<body data-storage="{STORAGE_KEY}" data-intervals="{escape(json.dumps(intervals))}" '
            f'data-slack="{tolerance}"><header><h1>{escape(TITLE)}</h1>'
            f"<p>{len(questions)} questions. Answer, then check: the explanation and its source follow each answer. "
            "A short answer is compared without spaces or case; one typed with other than plain ASCII letters, "
            "digits and signs is shown for you to grade against the model answer. Questions you miss come back "
            "for review (kept in this browser).</p>"
            '<section id="review" hidden><h2>Review</h2><p id="due-summary"></p><ol id="due-list"></ol>'
            '<label><input type="checkbox" id="only-due"> show only the questions due now</label></section>'
            f"</header><main>{body}</main><script>{_asset('export_html.js')}</script></body></html>\n")
