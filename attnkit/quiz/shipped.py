"""Where the shipped question banks are (the ``quizzes`` package), found without reading them."""
from __future__ import annotations

from pathlib import Path


def default_dir() -> Path:
    """The folder of the shipped banks (the ``quizzes`` package)."""
    try:
        import quizzes

        return Path(quizzes.__file__).resolve().parent
    except ImportError:  # running from a source tree without the package installed
        return Path(__file__).resolve().parents[2] / "quizzes"


def default_files() -> list[Path]:
    return sorted(default_dir().glob("*.yaml"))
