"""GIFT export for Moodle (one question per block, blank line between blocks).

Special characters ``~ = # { } :`` and the backslash are escaped with a backslash, newlines become
``\\n``; the explanation is the general feedback (``####``). Ordering questions become matching
questions (item -> position) since GIFT has no ordering type.
"""
from __future__ import annotations

from .arrange import listed_items
from .fractions import multiple_fractions, percent
from .model import Question, format_number

_SPECIAL = "~=#{}:"


def escape(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for char in _SPECIAL:
        text = text.replace(char, "\\" + char)
    return text.replace("\r\n", "\n").replace("\n", "\\n")


def _answers(question: Question) -> list[str]:
    if question.type == "single":
        return [("=" if choice == question.answer else "~") + escape(choice) for choice in question.choices]
    if question.type == "multiple":
        right, wrong = multiple_fractions(len(question.answer), len(question.choices))
        return [f"~%{percent(right if choice in question.answer else wrong)}%{escape(choice)}"
                for choice in question.choices]
    if question.type == "true_false":
        return ["TRUE" if question.answer else "FALSE"]
    if question.type == "numeric":
        return [f"#{format_number(question.answer)}:{format_number(question.tolerance)}"]
    if question.type == "short":
        return ["=" + escape(form) for form in question.answer]
    if question.type == "ordering":
        return [f"={escape(item)} -> {question.answer.index(item) + 1}" for item in listed_items(question)]
    raise ValueError(question.type)


def to_gift(questions) -> str:
    blocks = ["// attnkit quiz bank, GIFT format for Moodle (attnkit quiz export --format gift)"]
    topic = None
    for question in questions:
        if question.topic != topic:
            topic = question.topic
            blocks.append(f"$CATEGORY: $course$/top/attnkit/{topic}")
        prompt = question.prompt
        if question.type == "ordering":
            prompt += "\n(Match each item with its position, 1 = first.)"
        cited = f" | source: {question.source}" if question.source.paper else ""
        lines = [f"// {question.id} | {question.type} | {question.difficulty}{cited}",
                 f"::{escape(question.id)}::{escape(prompt)} {{"]
        lines += [f"\t{answer}" for answer in _answers(question)]
        lines.append(f"\t####{escape(' '.join(filter(None, (question.explanation, question.source.line()))))}")
        lines.append("}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
