"""Shared helpers for the nbgrader tests: export a course, read its notebooks (attnkit.nbgrader.harness)."""
from __future__ import annotations

from pathlib import Path

from attnkit.nbgrader import main
from attnkit.nbgrader.course import ASSIGNMENT
from attnkit.nbgrader.harness import answer_cells, filled, jupyter_env, meta, notebooks, source, submit

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
__all__ = ["ASSIGNMENT", "REPO", "SEEDS", "answer_cells", "export", "filled", "grade_cells", "jupyter_env", "meta",
           "notebooks", "source", "submit"]


def export(course: Path, *extra: str) -> int:
    return main(["export", str(course), *extra])


def grade_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if meta(cell).get("grade")]
