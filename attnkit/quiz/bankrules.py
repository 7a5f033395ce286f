"""Rules over a whole set of banks, run by ``attnkit quiz validate`` (not by every session: they cost time).

- No fixed question is an instance of a generated one: a numeric question of the same topic whose prompt holds
  every number a generator's prompt is filled with, for one of the first ``SEEDS`` seeds, and whose answer equals that
  instance's, asks the same thing twice (and a learner meets it as a repeat).
- Every topic has at least ``MIN_HARD`` hard questions.
"""
from __future__ import annotations

import functools
import re
import string

from .generators import generate
from .model import Question, plural
from .validate import Problem

SEEDS = 300  # generator seeds tried per generated question: the generators draw from small tables
MIN_HARD = 3
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def numbers_in(text: str) -> set[float]:
    """The numbers written in ``text`` (``4,096`` and ``4096`` alike)."""
    return {float(found) for found in _NUMBER.findall(re.sub(r"(?<=\d),(?=\d{3}\b)", "", text))}


def _instances(question: Question) -> tuple[tuple[int, frozenset, float], ...]:
    """``(seed, numbers given in the prompt, answer)`` for each distinct instance of the first SEEDS seeds."""
    fields = frozenset(name for _, name, _, _ in string.Formatter().parse(question.prompt) if name and name != "answer")
    return _instances_of(question.generator, fields)


@functools.lru_cache(maxsize=256)
def _instances_of(generator: str, fields: frozenset) -> tuple[tuple[int, frozenset, float], ...]:
    """The instances of ``generator`` whose prompt shows ``fields``: computed once per process (a seed's variant
    never changes), however many banks a process validates."""
    seen, found = set(), []
    for seed in range(SEEDS):
        variant = generate(generator, seed)
        given = frozenset(number for name in fields for number in numbers_in(str(variant.params[name])))
        key = (given, float(variant.answer))
        if key not in seen:
            seen.add(key)
            found.append((seed, given, float(variant.answer)))
    return tuple(found)


def generator_repeats(questions) -> list[Problem]:
    """A fixed numeric question that equals an instance of a generated one of its topic (same given numbers, same
    answer)."""
    fixed: dict[str, list] = {}
    for question in questions:
        if question.type == "numeric" and not question.generated:
            fixed.setdefault(question.topic, []).append((question, numbers_in(question.prompt)))
    problems = []
    for generated in (question for question in questions if question.generated and question.topic in fixed):
        for seed, given, answer in _instances(generated):
            for question, written in fixed[generated.topic]:
                tolerance = max(question.tolerance, generated.tolerance or 0) + 1e-9
                same = abs(question.answer - answer) <= tolerance
                if same and given <= written and question.id not in {p.qid for p in problems}:
                    problems.append(Problem(
                        question.file, question.line, question.id,
                        f"asks what generated question '{generated.id}' ({generated.file}:{generated.line}) asks "
                        f"for seed {seed} (the same numbers, answer {answer:g}): remove it, or ask something the "
                        "generator does not"))
    return problems


def hard_per_topic(questions, checked_files) -> list[Problem]:
    """Each topic with a question in ``checked_files`` has at least MIN_HARD hard questions among ``questions``."""
    problems = []
    topics = {question.topic: question for question in questions if question.file in checked_files}
    for topic, first in topics.items():
        hard = sum(question.difficulty == "hard" for question in questions if question.topic == topic)
        if hard < MIN_HARD:
            problems.append(Problem(first.file, 1, None,
                                    f"topic '{topic}' has {plural(hard, 'hard question')}; a topic needs at least "
                                    f"{MIN_HARD} (questions that combine two ideas or catch a classic mistake)"))
    return problems


def check(questions, checked_files) -> list[Problem]:
    """Every whole-bank rule: ``questions`` are all the loaded ones, ``checked_files`` the files being validated."""
    return generator_repeats(questions) + hard_per_topic(questions, checked_files)
