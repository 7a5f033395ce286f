"""A printable Markdown sheet: the questions by topic, then the answer key with explanations."""
from __future__ import annotations

from .answers import Form
from .model import TYPE_LABELS, Question


def _block(text: str) -> str:
    # Markdown joins single newlines; keep the author's line breaks (matrices, lists) with two spaces.
    return "  \n".join(text.splitlines())


def _question(number: int, question: Question) -> list[str]:
    lines = [f"**{number}.** {_block(question.prompt)}", "",
             f"*{TYPE_LABELS[question.type]}, {question.difficulty}, id `{question.id}`*", ""]
    if question.type in ("single", "multiple"):
        box = "( )" if question.type == "single" else "[ ]"
        lines += [f"- {box} {choice}" for choice in question.choices] + [""]
    elif question.type == "true_false":
        lines += ["- ( ) True", "- ( ) False", ""]
    elif question.type == "ordering":
        items = sorted(question.answer)  # alphabetical, so the sheet does not give the order away
        lines += ["Put in order (write 1 for the first):", ""] + [f"- ____ {item}" for item in items] + [""]
    else:
        lines += ["Answer: ______________________", ""]
    return lines


def to_markdown(questions) -> str:
    questions = list(questions)
    lines = ["# attnkit quiz: self-attention", "",
             f"{len(questions)} questions. The answer key with explanations and sources is at the end.", ""]
    topic = None
    for number, question in enumerate(questions, 1):
        if question.topic != topic:
            topic = question.topic
            lines += [f"## {topic}", ""]
        lines += _question(number, question)
    lines += ["---", "", "## Answer key", ""]
    for number, question in enumerate(questions, 1):
        answer = question.answer_text()
        if question.type == "short" and len(question.answer) > 1 and question.form is Form.TEXT:
            answer += " (also accepted: " + "; ".join(question.answer[1:]) + ")"
        lines += [f"**{number}.** `{question.id}`: **{answer}**  ", f"{_block(question.explanation)}  "]
        lines += [f"*{question.source.line()}*", ""] if question.source.paper else [""]
    return "\n".join(lines).rstrip() + "\n"
