"""Moodle XML export: one <question> per bank entry (plus a category per topic), texts in CDATA."""
from __future__ import annotations

import html

from .arrange import listed_items
from .fractions import multiple_fractions, percent
from .model import Question, format_number


def cdata(text: str) -> str:
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def as_html(text: str) -> str:
    paragraphs = [part for part in text.split("\n\n") if part.strip()]
    return "".join("<p>" + html.escape(part.strip()).replace("\n", "<br>") + "</p>" for part in paragraphs)


def _text(tag: str, text: str, fmt: str = "html", indent: str = "    ") -> str:
    return f'{indent}<{tag} format="{fmt}"><text>{cdata(text)}</text></{tag}>'


def _answer(fraction: float, text: str, extra: str = "", fmt: str = "html") -> str:
    return (f'    <answer fraction="{percent(fraction)}" format="{fmt}"><text>{cdata(text)}</text>'
            f'<feedback format="html"><text></text></feedback>{extra}</answer>')


def _body(question: Question) -> tuple[str, list[str]]:
    qtype = question.type
    if qtype in ("single", "multiple"):
        lines = [f"    <single>{'true' if qtype == 'single' else 'false'}</single>",
                 f"    <shuffleanswers>{'false' if question.pinned else 'true'}</shuffleanswers>",
                 "    <answernumbering>123</answernumbering>"]
        if qtype == "single":
            lines += [_answer(1.0 if c == question.answer else 0.0, as_html(c)) for c in question.choices]
        else:
            right, wrong = multiple_fractions(len(question.answer), len(question.choices))
            lines += [_answer(right if c in question.answer else wrong, as_html(c)) for c in question.choices]
        return "multichoice", lines
    if qtype == "true_false":
        return "truefalse", [_answer(1.0 if question.answer else 0.0, "true", fmt="moodle_auto_format"),
                             _answer(0.0 if question.answer else 1.0, "false", fmt="moodle_auto_format")]
    if qtype == "numeric":
        tolerance = f"<tolerance>{format_number(question.tolerance)}</tolerance>"
        return "numerical", [_answer(1.0, format_number(question.answer), tolerance, fmt="moodle_auto_format"),
                             "    <unitgradingtype>0</unitgradingtype>", "    <unitpenalty>0</unitpenalty>",
                             "    <showunits>3</showunits>", "    <unitsleft>0</unitsleft>"]
    if qtype == "short":
        return "shortanswer", ["    <usecase>0</usecase>"] + [
            _answer(1.0, form, fmt="moodle_auto_format") for form in question.answer]
    if qtype == "ordering":  # core Moodle has no ordering type: match each item with its position
        lines = ["    <shuffleanswers>true</shuffleanswers>"]
        for item in listed_items(question):
            lines.append(f'    <subquestion format="html"><text>{cdata(as_html(item))}</text>'
                         f"<answer><text>{question.answer.index(item) + 1}</text></answer></subquestion>")
        return "matching", lines
    raise ValueError(qtype)


def to_moodle_xml(questions) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!-- attnkit quiz bank in Moodle XML, written by attnkit quiz export -->", "<quiz>"]
    topic = None
    for question in questions:
        if question.topic != topic:
            topic = question.topic
            out += ['  <question type="category">',
                    f"    <category><text>$course$/top/attnkit/{topic}</text></category>", "  </question>"]
        qtype, body = _body(question)
        prompt = question.prompt + ("\n\n(Match each item with its position, 1 = first.)"
                                    if question.type == "ordering" else "")
        feedback = "\n\n".join(filter(None, (question.explanation, question.source.line())))
        out += [f'  <question type="{qtype}">',
                f"    <name><text>{cdata(question.id)}</text></name>",
                _text("questiontext", as_html(prompt)),
                _text("generalfeedback", as_html(feedback)),
                "    <defaultgrade>1</defaultgrade>", "    <penalty>0.3333333</penalty>", "    <hidden>0</hidden>",
                f"    <idnumber>{html.escape(question.id)}</idnumber>",
                *body,
                f"    <tags><tag><text>{cdata(question.difficulty)}</text></tag></tags>",
                "  </question>"]
    out.append("</quiz>")
    return "\n".join(out) + "\n"
