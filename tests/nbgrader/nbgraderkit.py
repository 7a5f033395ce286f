"""Shared helpers for the nbgrader tests: export a course, read its notebooks, fill answers."""
from __future__ import annotations

import json
from pathlib import Path

from attnkit.nbgrader import main
from attnkit.nbgrader.sources import strip_solution_markers

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
ASSIGNMENT = "self_attention"


def export(course: Path, *extra: str) -> int:
    return main(["export", str(course), *extra])


def notebooks(folder: Path) -> dict[str, dict]:
    """Exercise id -> notebook JSON of every ``*.ipynb`` in ``folder``."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.ipynb"))}


def meta(cell: dict) -> dict:
    return cell["metadata"].get("nbgrader", {})


def source(cell: dict) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def grade_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if meta(cell).get("grade")]


def answer_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if meta(cell).get("solution")]


def filled(release: dict, solution: dict) -> dict:
    """The release notebook with every answer cell replaced by the source notebook's (markers removed)."""
    answers = {meta(cell)["grade_id"]: source(cell) for cell in answer_cells(solution)}
    notebook = json.loads(json.dumps(release))
    for cell in answer_cells(notebook):
        cell["source"] = strip_solution_markers(answers[meta(cell)["grade_id"]])
    return notebook
