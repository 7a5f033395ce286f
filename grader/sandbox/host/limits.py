"""The limits every child runs under, and their defaults, in one place: every front end's ``--help`` quotes them.

Nothing is imported, so a command line can state its defaults without loading the sandbox (or numpy)."""
from __future__ import annotations

from dataclasses import dataclass

TIMEOUT_SECONDS = 10.0         # one request of the trusted side to a child (wall clock)
MEMORY_MB = 2048               # RLIMIT_AS of a child
STUDENT_SECONDS = 60.0         # time budget of one submission (all its requests)
EXERCISE_TIMEOUTS = 3          # time budget of one exercise: this many timeouts
OUTPUT_LIMIT = 1 << 20         # what a child may write (stdout, stderr, files): 1 MiB, the hard backstop
PRINT_LIMIT = 256 << 10        # what a child's print / sys.stdout / sys.stderr keep; the rest is discarded


@dataclass(frozen=True)
class Limits:
    """``timeout``: one request (seconds, wall clock, one deadline for the whole answer); ``exercise_seconds``
    and ``student_seconds``: every request of one exercise / of one submission together (default
    ``EXERCISE_TIMEOUTS * timeout`` and :data:`STUDENT_SECONDS`); past them the remaining calls fail as too slow."""

    timeout: float = TIMEOUT_SECONDS
    memory_bytes: int = MEMORY_MB << 20
    output_bytes: int = OUTPUT_LIMIT
    exercise_seconds: float | None = None
    student_seconds: float = STUDENT_SECONDS

    @property
    def per_exercise(self) -> float:
        return self.exercise_seconds if self.exercise_seconds is not None else EXERCISE_TIMEOUTS * self.timeout
