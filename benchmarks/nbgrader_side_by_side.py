"""Side by side with nbgrader: written once the nbgrader export lands (see issue 5)."""
from __future__ import annotations


def run(size: int) -> dict:
    return {"skipped": "nbgrader side-by-side not wired yet"}
