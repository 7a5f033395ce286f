"""``attnkit quiz export``: expand generated questions into fixed variants and write one format."""
from __future__ import annotations

from pathlib import Path

from grader import atomic

from .answers import Form, spellings
from .arrange import arranged
from .grading import instantiate
from .model import TOPICS, Question

FORMATS = ("gift", "moodle-xml", "markdown", "qti", "html")


def spelled(question: Question) -> Question:
    """A shape, set or big-O short answer with the common ways to type it: an LMS compares text, not values."""
    if question.type != "short" or question.form is Form.TEXT:
        return question
    forms = [form for written in question.answer for form in spellings(question.form, written)]
    return question.with_(answer=tuple(dict.fromkeys(forms)))


def expand(questions, variants: int = 1) -> list[Question]:
    """Every question once; a generated one ``variants`` times (seeds 1..K, ids ``<id>-v<seed>``); choices in
    export order (:func:`arrange.arranged`); structured short answers spelled out (:func:`spelled`)."""
    out = []
    for question in sorted(questions, key=lambda q: TOPICS.index(q.topic)):  # learning-path order
        if question.generated:
            for seed in range(1, variants + 1):
                out.append(arranged(instantiate(question, seed).with_(id=f"{question.id}-v{seed}")))
        else:
            out.append(arranged(spelled(question)))
    return out


def render(questions, fmt: str, variants: int = 1) -> str:
    entries = expand(questions, variants)
    if fmt == "gift":
        from .export_gift import to_gift

        return to_gift(entries)
    if fmt == "moodle-xml":
        from .export_moodle import to_moodle_xml

        return to_moodle_xml(entries)
    if fmt == "markdown":
        from .export_markdown import to_markdown

        return to_markdown(entries)
    if fmt == "qti":
        from .export_qti import to_text2qti

        return to_text2qti(entries)
    if fmt == "html":
        from .export_html import to_html

        return to_html(entries)
    raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")


def export(questions, fmt: str, out: Path, variants: int = 1) -> int:
    """Write the export atomically; return how many entries were written."""
    text = render(questions, fmt, variants)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(Path(out), text)
    return len(expand(questions, variants))
