"""The order in which an export lists a question's options: shuffled, seeded by the question id.

Authors tend to write the right choice first; an export that kept the written order would give the
answer away. Every export lists choices (and the items of an ordering question) through here, so the
same bank always exports the same order, and a variant ``<id>-v<k>`` gets its own order.
"""
from __future__ import annotations

import random
import zlib

from .model import Question


def _rng(qid: str) -> random.Random:
    return random.Random(zlib.crc32(f"export:{qid}".encode()))


def arranged(question: Question) -> Question:
    """``question`` with its choices in export order (single and multiple choice, unless pinned)."""
    if question.type not in ("single", "multiple") or question.pinned:
        return question
    choices = list(question.choices)
    _rng(question.id).shuffle(choices)
    return question.with_(choices=tuple(choices))


def listed_items(question: Question) -> list[str]:
    """The items of an ordering question in the order an export lists them: never the correct order."""
    items = list(question.answer)
    _rng(question.id).shuffle(items)
    if items == list(question.answer):
        items.reverse()
    return items
