"""Turning a bank question into what is asked (variant, shuffled choices) and marking a typed answer."""
from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass

from . import answers
from .generators import generate
from .model import Question, format_number


def variant_seed(session_seed: int, qid: str) -> int:
    """The generator seed for question ``qid`` in a session seeded with ``session_seed``."""
    return zlib.crc32(f"{session_seed}:{qid}".encode()) & 0x7FFFFFFF


def instantiate(question: Question, seed: int) -> Question:
    """A concrete question: generated ones get their params, prompt, explanation and answer for ``seed``."""
    if not question.generated:
        return question
    variant = generate(question.generator, seed)
    params = dict(variant.params, answer=format_number(variant.answer))
    return question.with_(prompt=question.prompt.format(**params), explanation=question.explanation.format(**params),
                          answer=float(variant.answer), variant=seed)


@dataclass(frozen=True)
class Asked:
    """A question as shown: ``options`` are the numbered items (choices, True/False or ordering items)."""

    question: Question
    options: tuple[str, ...]


def present(question: Question, seed: int) -> Asked:
    """Shuffle choices / ordering items deterministically from ``seed`` unless the question pins them."""
    if question.type == "true_false":
        return Asked(question, ("True", "False"))
    if question.type in ("single", "multiple"):
        items = list(question.choices)
    elif question.type == "ordering":
        items = list(question.answer)
    else:
        return Asked(question, ())
    rng = random.Random(f"{seed}:{question.id}:choices")
    if not question.pinned or question.type == "ordering":
        rng.shuffle(items)
        if question.type == "ordering" and items == list(question.answer):
            items.reverse()  # never show an ordering question already solved
    return Asked(question, tuple(items))


class BadAnswer(ValueError):
    """The typed text cannot be read as an answer to this question; the message says what to type."""


def _numbers(text: str, count: int, single: bool = False) -> list[int]:
    parts = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
    if not parts or not all(part.isdecimal() for part in parts):  # isdigit() would let '²' reach int()
        if single:
            raise BadAnswer(f"type the number of one choice, between 1 and {count}, e.g. {min(2, count)}")
        raise BadAnswer(f"type choice numbers between 1 and {count}, e.g. 1,3")
    numbers = [int(part) for part in parts]
    if any(not 1 <= number <= count for number in numbers):
        raise BadAnswer(f"choice numbers go from 1 to {count}")
    return numbers


def mark(asked: Asked, text: str) -> tuple[bool, str]:
    """``(correct, what the learner answered in words)``; raises ``BadAnswer`` for unreadable input."""
    question, options = asked.question, asked.options
    text = text.strip()
    if not text:
        raise BadAnswer("type an answer (Ctrl-C stops the session)")
    if question.type == "true_false":
        word = text.casefold()
        value = {"1": True, "t": True, "true": True, "2": False, "f": False, "false": False}.get(word)
        if value is None:
            raise BadAnswer("type 1 (True) or 2 (False)")
        return value == question.answer, "True" if value else "False"
    if question.type == "single":
        lowered = [option.casefold() for option in options]
        # a choice's number always means that choice; its text is accepted too, unless it reads as a choice's
        # number (choices '0' and '1' shown as 2 and 1: typing 1 means the first one shown)
        if text.casefold() in lowered and not (text.isdecimal() and 1 <= int(text) <= len(options)):
            chosen = options[lowered.index(text.casefold())]
        else:
            numbers = _numbers(text, len(options), single=True)
            if len(numbers) != 1:
                raise BadAnswer(f"choose exactly one number, e.g. {min(2, len(options))}")
            chosen = options[numbers[0] - 1]
        return chosen == question.answer, chosen
    if question.type == "multiple":
        chosen = {options[number - 1] for number in _numbers(text, len(options))}
        return chosen == set(question.answer), "; ".join(option for option in options if option in chosen)
    if question.type == "ordering":
        numbers = _numbers(text, len(options))
        if sorted(numbers) != list(range(1, len(options) + 1)):
            raise BadAnswer(f"give every number from 1 to {len(options)} once, in the right order, e.g. 3 1 2 ...")
        order = [options[number - 1] for number in numbers]
        return order == list(question.answer), " -> ".join(order)
    if question.type == "numeric":
        try:
            value = answers.number(text)
        except answers.Unreadable as error:
            raise BadAnswer(str(error)) from None
        return abs(value - question.answer) <= question.tolerance + 1e-9, text
    try:
        typed = answers.read(question.form, text)
    except answers.Unreadable as error:
        raise BadAnswer(str(error)) from None
    return typed in {answers.read(question.form, form) for form in question.answer}, text
