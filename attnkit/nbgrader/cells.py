"""Notebook cells (nbformat 4.5 JSON) with nbgrader's cell metadata, schema version 3.

nbgrader reads ``cell.metadata.nbgrader``: ``grade`` (the cell earns points), ``solution``
(students write in it), ``locked`` (read-only, checksummed and restored at autograding),
``task``, ``grade_id`` (unique in the notebook, ``[A-Za-z0-9_-]``), ``points`` (only on
grade cells) and ``schema_version``. The kinds used here:

==========================  =====  ========  ======  ======
cell                        grade  solution  locked  points
==========================  =====  ========  ======  ======
read-only (text, imports)   no     no        yes     --
autograded answer           no     yes       no      --
autograder tests            yes    no        yes     the check's
==========================  =====  ========  ======  ======
"""
from __future__ import annotations

import re

SCHEMA_VERSION = 3
GRADE_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
DELIMITERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python", "file_extension": ".py", "mimetype": "text/x-python"}


def _lines(text: str) -> list[str]:
    return text.strip("\n").splitlines(keepends=True)


def _metadata(grade_id: str, *, grade: bool = False, solution: bool = False, locked: bool = False,
              points: float | None = None) -> dict:
    if not GRADE_ID.match(grade_id):
        raise ValueError(f"invalid nbgrader grade_id {grade_id!r}")
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": SCHEMA_VERSION,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = int(points) if float(points).is_integer() else float(points)
    return {"nbgrader": meta}


def _code(cell_id: str, source: str, metadata: dict) -> dict:
    return {"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": metadata,
            "outputs": [], "source": _lines(source)}


def readonly_markdown(grade_id: str, text: str) -> dict:
    """Instructions: a locked Markdown cell (nbgrader restores it if a student edits it)."""
    _refuse_delimiters(text, grade_id)
    return {"cell_type": "markdown", "id": grade_id, "metadata": _metadata(grade_id, locked=True),
            "source": _lines(text)}


def readonly_code(grade_id: str, source: str) -> dict:
    """Setup code the student runs but does not change (the imports)."""
    _refuse_delimiters(source, grade_id)
    return _code(grade_id, source, _metadata(grade_id, locked=True))


def answer(grade_id: str, source: str) -> dict:
    """An autograded-answer cell: ``### BEGIN SOLUTION`` regions become ``YOUR CODE HERE`` stubs."""
    if "### BEGIN SOLUTION" not in source:
        raise ValueError(f"answer cell {grade_id} has no solution region")
    return _code(grade_id, source, _metadata(grade_id, solution=True))


def tests(grade_id: str, source: str, points: float) -> dict:
    """An autograder-test cell: locked, worth ``points``; an error in its output scores 0."""
    if any(d in source for d in DELIMITERS[:2]):
        raise ValueError(f"test cell {grade_id} contains a solution marker")
    return _code(grade_id, source, _metadata(grade_id, grade=True, locked=True, points=points))


def scratch(cell_id: str, source: str = "") -> dict:
    """A plain code cell for trying things out (no nbgrader metadata: not graded, not checked)."""
    _refuse_delimiters(source, cell_id)
    return _code(cell_id, source, {})


def notebook(cells: list[dict]) -> dict:
    """A notebook (nbformat 4.5) with the Python 3 kernel nbgrader executes it with."""
    ids = [cell["id"] for cell in cells]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate cell ids: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    return {"cells": cells, "metadata": {"kernelspec": dict(KERNELSPEC), "language_info": dict(LANGUAGE_INFO)},
            "nbformat": 4, "nbformat_minor": 5}


def _refuse_delimiters(text: str, where: str) -> None:
    """nbgrader treats any line containing a delimiter as one, wherever it is: keep them out of other cells."""
    for delimiter in DELIMITERS:
        if delimiter in text:
            raise ValueError(f"cell {where} contains nbgrader's delimiter {delimiter!r}")
