"""A terminal quiz session: one question at a time over plain stdin (numbered choices)."""
from __future__ import annotations

import random
import secrets
import sys
import textwrap
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from . import gate
from .answers import HOW_TO_TYPE
from .bank import Bank
from .grading import Asked, BadAnswer, instantiate, mark, present, variant_seed
from .model import TOPICS, TYPE_LABELS, plural
from .progress import Progress
from .schedule import Rating, rate

WIDTH = 80
HINTS = {
    "single": "type the number of your choice, e.g. 2",
    "multiple": "several may be right: type all their numbers, e.g. 1,3",
    "true_false": "type 1 or 2, or t / f",
    "numeric": "type a number",
    "ordering": "type the numbers in the right order, e.g. 3 1 2 ...",
}


@dataclass
class Settings:
    topics: tuple[str, ...] = ()
    count: int = 10
    seed: int | None = None
    review: bool = False
    exam: bool = False
    exercise: str | None = None  # the "predict, then run" questions of this exercise


@dataclass
class Result:
    asked: Asked
    given: str
    correct: bool
    rating: Rating


class LineSource:
    """Answers from a stream (a file, a pipe or a terminal); echoes them when not typed live."""

    def __init__(self, stream, out, echo: bool):
        self.stream, self.out, self.echo = stream, out, echo

    def ask(self, prompt: str) -> str:
        if not self.echo and self.stream is sys.stdin and self.out is sys.stdout:
            return input(prompt)  # live terminal: line editing; EOFError on Ctrl-D
        self.out.write(prompt)
        self.out.flush()
        line = self.stream.readline()
        if line == "":
            self.out.write("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        if self.echo:
            self.out.write(line + "\n")
        return line


def missed_choices(asked: Asked, given: str) -> str:
    """What was wrong about an answer, numbered as on the screen: for a multiple-choice question the right
    choices left out and the wrong ones picked; otherwise the right answer."""
    question = asked.question
    number = {option: index for index, option in enumerate(asked.options, 1)}
    if question.type == "multiple":
        chosen = set(given.split("; "))
        left_out = [f"{number[o]}) {o}" for o in asked.options if o in question.answer and o not in chosen]
        wrong = [f"{number[o]}) {o}" for o in asked.options if o in chosen and o not in question.answer]
        parts = ([f"You missed {'; '.join(left_out)}."] if left_out else []) + (
            [f"Not right: {'; '.join(wrong)}."] if wrong else [])
        right = "; ".join(f"{number[o]}) {o}" for o in asked.options if o in question.answer)
        return " ".join(parts + [f"Answer: {right}"])
    if question.type == "single":
        return f"Answer: {number[question.answer]}) {question.answer}"
    return f"Answer: {question.answer_text()}"


def percent_of(part: int, whole: int) -> int:
    """``part`` of ``whole`` in whole percent, rounded half up (7 of 9 is 78)."""
    return (200 * part + whole) // (2 * whole)


def _wrap(text: str, indent: str = "  ") -> str:
    lines = []
    for raw in text.splitlines() or [""]:
        if not raw.strip():
            lines.append("")
            continue
        lead = raw[: len(raw) - len(raw.lstrip())]
        lines.append(textwrap.fill(raw.strip(), WIDTH - 1, initial_indent=indent + lead,
                                   subsequent_indent=indent + lead + "  ", break_on_hyphens=False,
                                   break_long_words=False))
    return "\n".join(lines)


class Session:
    def __init__(self, bank: Bank, settings: Settings, progress: Progress, source: LineSource, out,
                 clock: Callable[[], datetime], timer: Callable[[], float] = time.monotonic):
        """``clock`` gives the time of each review; ``timer`` (seconds) measures how fast a live answer came."""
        self.bank, self.settings, self.progress = bank, settings, progress
        self.source, self.out, self.clock, self.timer = source, out, clock, timer
        self.seed = settings.seed if settings.seed is not None else secrets.randbelow(10**6)
        self.results: list[Result] = []

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def choose(self) -> list:
        if self.settings.exercise:
            return gate.questions(self.settings.exercise, self.bank)
        pool = self.bank.by_topic(self.settings.topics)
        if self.settings.review:
            due = self.progress.due(self.clock(), {q.id for q in pool})
            return [self.bank.get(qid) for qid in due[: self.settings.count]]
        rng = random.Random(self.seed)
        return rng.sample(pool, min(self.settings.count, len(pool)))

    def run(self) -> int:
        if self.progress.notice:
            self.say(f"note: {self.progress.notice}")
        questions = self.choose()
        topics = ", ".join(self.settings.topics) if self.settings.topics else "all"
        if self.settings.exercise:
            topics = self.settings.exercise
            if not questions:
                self.say(f"Exercise {topics} has no 'predict, then run' questions.")
                return 0
        elif not questions:
            return self._nothing_due(topics)
        mode = ("predict, then run" if self.settings.exercise else "review" if self.settings.review
                else "exam" if self.settings.exam else "practice")
        self.say(f"attnkit quiz: {plural(len(questions), 'question')}, {mode}, topics: {topics}, seed {self.seed}")
        if self.settings.exercise:
            self.say(_wrap("Before you run the checks: say what the function must return for these inputs.", ""))
        self.say("Numbered choices; Ctrl-C stops and keeps your progress.")
        status, stopped = 0, None
        try:
            for index, question in enumerate(questions, 1):
                self._ask(index, len(questions), question)
        except KeyboardInterrupt:
            status, stopped = 130, "interrupted"
        except EOFError:
            stopped = "input ended"
        if stopped:
            self.say(f"\n-- {stopped} after {len(self.results)} of {len(questions)} questions --")
        self._finish(stopped)
        return status

    def _nothing_due(self, topics: str) -> int:
        upcoming = self.progress.next_due({q.id for q in self.bank.by_topic(self.settings.topics)})
        if upcoming is None:
            self.say(f"Nothing to review yet (topics: {topics}): run `attnkit quiz` first.")
        else:
            self.say(f"Nothing is due for review (topics: {topics}); next review on "
                     f"{upcoming.strftime('%Y-%m-%d %H:%M')} UTC.")
        return 0

    def _ask(self, index: int, total: int, question) -> None:
        concrete = instantiate(question, variant_seed(self.seed, question.id))
        asked = present(concrete, self.seed)
        self.say()
        self.say(f"[{index}/{total}] {concrete.topic} | {concrete.difficulty} | {TYPE_LABELS[concrete.type]}")
        card = self.progress.cards.get(question.id)
        if self.settings.review and card is not None and card.why:
            self.say(_wrap(f"(back because your code showed the mistake '{card.why}')", "  "))
        self.say(_wrap(concrete.prompt))
        for number, option in enumerate(asked.options, 1):
            self.say(_wrap(f"{number}) {option}", "    "))
        self.say(f"  ({HOW_TO_TYPE[concrete.form] if concrete.type == 'short' else HINTS[concrete.type]})")
        started = self.timer()
        while True:
            text = self.source.ask("answer> ")
            try:
                correct, given = mark(asked, text)
                break
            except BadAnswer as error:
                if self.source.echo:  # scripted: keep one line per question, count it as wrong
                    self.say(f"  ? {error}; counted as wrong")
                    correct, given = False, text
                    break
                self.say(f"  ? {error}")
        seconds = None if self.source.echo else self.timer() - started  # answers from a file or pipe: not timed
        words = len(concrete.prompt.split()) + sum(len(str(option).split()) for option in asked.options)
        rating = rate(correct, seconds, words)
        self.results.append(Result(asked, given, correct, rating))
        self.progress.record(question.id, rating, self.clock(), seconds)
        self.progress.save()
        if self.settings.exam:
            self.say("  (answer recorded)")
        else:
            self._feedback(self.results[-1])

    def _feedback(self, result: Result, indent: str = "  ") -> None:
        question = result.asked.question
        if result.correct:
            self.say(f"{indent}Right{' (and fast: rated easy)' if result.rating == Rating.EASY else ''}.")
        else:
            self.say(_wrap(f"Wrong. {missed_choices(result.asked, result.given)}", indent))
        self.say(_wrap(f"Why: {question.explanation}", indent))
        if question.source.line():
            self.say(_wrap(question.source.line(), indent))

    def _finish(self, stopped: str | None) -> None:
        if self.settings.exam and self.results:
            self.say("\nAnswers and explanations")
            for number, result in enumerate(self.results, 1):
                self.say("\n" + _wrap(f"[{number}] {result.asked.question.id}: you answered {result.given!r}", ""))
                self._feedback(result)
        right = sum(result.correct for result in self.results)
        asked = len(self.results)
        percent = f" ({percent_of(right, asked)}%)" if asked else ""
        self.say(f"\nScore: {right}/{asked}{percent}")
        per_topic: OrderedDict[str, list[int]] = OrderedDict((t, [0, 0]) for t in TOPICS)
        for result in self.results:
            tally = per_topic[result.asked.question.topic]
            tally[0] += result.correct
            tally[1] += 1
        for topic, (good, seen) in per_topic.items():
            if seen:
                self.say(f"  {topic:<16} {good}/{seen}")
        missed = [result for result in self.results if not result.correct]
        if missed:
            self.say(f"Missed ({len(missed)}):")
            for result in missed:
                question = result.asked.question
                self.say(_wrap(f"- {question.id}: {question.prompt.strip()}".replace("\n", "\n  "), "  "))
        self.progress.sessions.append({"at": self.clock().strftime("%Y-%m-%dT%H:%M:%SZ"), "seed": self.seed,
                                       "asked": asked, "right": right, "stopped": stopped or "",
                                       "review": self.settings.review})
        self.progress.save()
        known = self.bank.ids()  # a card of a question no bank has any more is never asked: not counted
        due = len(self.progress.due(self.clock(), known))
        tracked = sum(qid in known for qid in self.progress.cards)
        self.say(_wrap(f"Progress saved ({plural(tracked, 'question')} tracked, {due} due now; "
                       "`attnkit quiz --review` asks what is due):", ""))
        self.say(f"  {self.progress.path}")
        if self.settings.exercise:
            self._gate_verdict()

    def _gate_verdict(self) -> None:
        exercise = self.settings.exercise
        left = gate.missing(exercise, path=self.progress.path, bank=self.bank)
        if left:
            self.say(_wrap(f"Not yet: {plural(len(left), 'question')} of {exercise} still to answer right "
                           f"({', '.join(left)}). Run `{gate.command(exercise)}` again.", ""))
        else:
            self.say(_wrap(f"All predictions right. Now run `attnkit check {exercise}` and see whether your code "
                           "agrees.", ""))
