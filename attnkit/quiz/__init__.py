"""``attnkit quiz``: question banks, terminal sessions with spaced repetition, validation and LMS export."""
from __future__ import annotations


def add_arguments(parser) -> None:
    from .cli import add_arguments

    add_arguments(parser)


def run(args) -> int:
    from .cli import run

    return run(args)


def main(argv=None, **streams) -> int:
    """``attnkit quiz ...`` (``argv`` = the arguments after ``quiz``); see :mod:`attnkit.quiz.cli`."""
    from .cli import main as _main

    return _main(argv, **streams)


__all__ = ["add_arguments", "main", "run"]
