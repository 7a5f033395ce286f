"""Where the release is built from (the project's packages) and the two ways a build stops."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

NO_SOLUTIONS = ("attnkit release: the reference solutions are not importable ({error}); run it from the attnkit "
                "source tree, where `pip install -e .` makes `solutions` importable")


class ReleaseError(Exception):
    """A user error: nothing was written."""


class BuildFailed(Exception):
    """The release would be wrong (a leak, a check the recording cannot answer): nothing was written."""


@dataclass(frozen=True)
class Sources:
    attnkit: Path
    grader: Path
    quizzes: Path
    solutions: Path

    @classmethod
    def find(cls) -> "Sources":
        try:
            solutions = importlib.import_module("solutions")
        except ImportError as error:
            raise ReleaseError(NO_SOLUTIONS.format(error=error)) from None
        paths = [Path(importlib.import_module(name).__file__).resolve().parent
                 for name in ("attnkit", "grader", "quizzes")]
        return cls(*paths, Path(solutions.__file__).resolve().parent)
