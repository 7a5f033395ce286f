"""A secret of the grading process, mixed into the inputs of the checks whose inputs a child must not predict.

A check's ``rng`` is seeded from the check's name, so the same submission always gets the same
grade. Anyone can recompute those inputs, so a submission could precompute its answer to a check
(at import, or in another exercise's child, passing it on through the scratch folder) and answer
that call from a cache: the tiled-attention memory check would then measure nothing. Such a check
draws its inputs from :func:`unpredictable` ``(rng)``, a generator seeded from ``rng`` and this
secret. The secret lives only in the grading process; :func:`load` reads it from a file only the
grader's user may read (``ATTNKIT_GRADING_SECRET``, default ``~/.local/state/attnkit/grading-secret``,
made on first use), so every run on one machine draws the same inputs and grades stay
reproducible. A child running as ``nobody`` (or confined by Landlock) cannot read that file.
Without :func:`load` (``attnkit check``, the pytest plugin, the student release), ``rng`` is used as is.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

import numpy as np

SECRET_BYTES = 32
_words: tuple[int, ...] | None = None  # the secret as four 64-bit words


def default_path() -> Path:
    configured = os.environ.get("ATTNKIT_GRADING_SECRET")
    return Path(configured) if configured else Path.home() / ".local" / "state" / "attnkit" / "grading-secret"


def load(path: Path | None = None) -> None:
    """Read the secret (or make it: 32 random bytes, mode 0600); a secret for this process only if that fails.

    A new secret is written to a private temporary file and linked into place, so that grading workers
    starting together either make it or read a complete one, never an empty file another is still writing.
    """
    global _words
    path = Path(path or default_path())
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            _create(path)
        data = path.read_bytes()
        if len(data) < SECRET_BYTES:
            raise OSError(f"{path} holds too few bytes")
    except OSError:
        data = secrets.token_bytes(SECRET_BYTES)  # unpredictable still; reproducible only within this run
    _words = tuple(int.from_bytes(data[i:i + 8], "big") for i in range(0, SECRET_BYTES, 8))


def _create(path: Path) -> None:
    """Link a complete new secret into ``path`` unless another process got there first."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(SECRET_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another worker's secret is in place and complete: everyone uses that one
    finally:
        temporary.unlink(missing_ok=True)


def unpredictable(rng: np.random.Generator) -> np.random.Generator:
    """A generator the student's side cannot reproduce (``rng`` itself when no secret is loaded)."""
    if _words is None:
        return rng
    return np.random.default_rng([int(rng.integers(1 << 63)), *_words])
