"""Drive the real nbgrader on an exported course: isolated Jupyter folders and handed-in notebooks.

Used by the nbgrader tests and by ``python -m benchmarks`` (nbgrader side by side); not by the
``attnkit nbgrader`` verb itself.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Collection

from .course import ASSIGNMENT
from .sources import strip_solution_markers


def notebooks(folder: Path) -> dict[str, dict]:
    """Exercise id -> notebook JSON of every ``*.ipynb`` in ``folder``."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.ipynb"))}


def meta(cell: dict) -> dict:
    return cell["metadata"].get("nbgrader", {})


def source(cell: dict) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def answer_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if meta(cell).get("solution")]


def filled(release: dict, solution: dict) -> dict:
    """The release notebook with every answer cell replaced by the source notebook's (markers removed)."""
    answers = {meta(cell)["grade_id"]: source(cell) for cell in answer_cells(solution)}
    notebook = json.loads(json.dumps(release))
    for cell in answer_cells(notebook):
        cell["source"] = strip_solution_markers(answers[meta(cell)["grade_id"]])
    return notebook


def jupyter_env(root: Path) -> dict:
    """nbgrader runs `alembic` from PATH and kernels from the data path: both from this Python's environment."""
    folders = {name: root / name for name in ("config", "data", "runtime", "ipython")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    env = dict(os.environ)
    env.update(PATH=str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
               JUPYTER_CONFIG_DIR=str(folders["config"]), JUPYTER_DATA_DIR=str(folders["data"]),
               JUPYTER_RUNTIME_DIR=str(folders["runtime"]), IPYTHONDIR=str(folders["ipython"]),
               JUPYTER_PLATFORM_DIRS="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
    env.pop("JUPYTER_PATH", None)
    return env


def submit(course: Path, student: str, fill: bool, only: Collection[str] | None = None) -> None:
    """Hand in the released notebooks as ``student``: answered with the solutions when ``fill``, untouched if not;
    with ``only``, just those exercises' notebooks (a partial hand-in: nbgrader scores the others 0)."""
    released = {e: nb for e, nb in notebooks(course / "release" / ASSIGNMENT).items() if only is None or e in only}
    solutions = notebooks(course / "source" / ASSIGNMENT)
    folder = course / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    for exercise, notebook in released.items():
        handed_in = filled(notebook, solutions[exercise]) if fill else notebook
        (folder / f"{exercise}.ipynb").write_text(json.dumps(handed_in), encoding="utf-8")
