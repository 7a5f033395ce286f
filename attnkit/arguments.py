"""Argument types shared by the verbs' parsers."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: an int of at least ``minimum``, with a message naming what was typed."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum} (got {value})")
        return value

    return parse


def add_exercises_argument(parser, help: str | None = None) -> None:
    """``--exercises SPEC``: a course's subset (comma-separated ids or a course YAML file), as ``args.exercises``.

    The value is parsed by :func:`grader.curriculum.select`; ``None`` means every exercise. ``parser`` may be an
    argument group; ``help`` replaces the default help text (what the subset means for that verb).
    """
    parser.add_argument("--exercises", type=_exercise_subset, default=None, metavar="IDS|FILE",
                        help=help or "only these exercises: comma-separated ids (e.g. softmax,masking) or a course "
                                     "file (YAML list of ids); points and totals follow the subset (default: all)")


def _exercise_subset(text: str) -> tuple[str, ...]:
    from grader import curriculum

    try:
        return curriculum.select(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class UsageError(Exception):
    """A wrong command line, raised by a parser made with :func:`raise_usage_errors` instead of exiting.

    ``attnkit`` prints it as ``attnkit VERB: message`` plus the usage (no traceback), exit status 2.
    """


class RaisingParser(argparse.ArgumentParser):
    """A parser whose errors, and those of the sub-verb parsers it makes, raise :class:`UsageError` with the
    parser's usage instead of printing and exiting (for a verb's own ``main(argv)``)."""

    def error(self, message: str):
        raise UsageError(f"{self.prog}: {message}\n{self.format_usage().strip()}")


def raise_usage_errors(parser: argparse.ArgumentParser, usage: str) -> None:
    """Make ``parser`` raise :class:`UsageError` (message and ``usage``) instead of printing and exiting."""

    def error(message: str):
        raise UsageError(f"{message}\nusage: {usage}")

    parser.error = error


def positive_seconds(text: str) -> float:
    """An argparse ``type`` for ``--timeout``: a number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 (got {text})")
    return value


DEFAULT_IMPL = "exercises"
SEARCH_UP = 3  # folders above the working folder where ``exercises/`` is looked for


def exercises_folder(impl: str | Path) -> Path:
    """The folder with the student's modules: ``impl`` when it exists; for the default (``exercises``, not given
    with --impl) run from inside ``exercises/`` or another folder of the attnkit folder, the ``exercises/`` found
    in the working folder or up to :data:`SEARCH_UP` folders above it, or the working folder itself when it
    holds exercise modules. ``impl`` unchanged (and missing) otherwise."""
    impl = Path(impl)
    if impl.is_dir() or str(impl) != DEFAULT_IMPL:
        return impl
    from grader import curriculum

    here = Path.cwd()
    for folder in (here, *here.parents[:SEARCH_UP]):
        if (folder / DEFAULT_IMPL).is_dir():
            return folder / DEFAULT_IMPL
        if any((folder / f"{exercise.id}.py").is_file() for exercise in curriculum.exercises()):
            return folder
    return impl
