"""Where ``attnkit grade`` meets the sandbox, and that the grader stands alone (issue 20 items 7 and 8).

The session step is the one place of ``attnkit/grade/`` that wires the sandbox (its zygote and limits, core
pinning, the grading secret, running a hand-in's checks, the workspaces' paths), so that the sandbox's front door
can change in one module; ``grader/`` never imports ``attnkit`` (the release ships the grader without it).
"""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GRADE = REPO / "attnkit" / "grade"
SESSION = GRADE / "steps" / "session.py"
# the names that wire the sandbox for one grading worker and one hand-in
WIRING = {"grader.sandbox", "grader.checks.secret", "secret", "run_submission", "Sandbox", "Limits"}


def imported(path: Path) -> set[str]:
    """Every module and name ``path`` imports (``from a.b import c``: ``a.b`` and ``c``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names),
                      *(alias.name for alias in node.names)}
    return found


def test_only_the_session_step_wires_the_sandbox():
    wiring = {path.relative_to(REPO).as_posix(): sorted(imported(path) & WIRING)
              for path in sorted(GRADE.rglob("*.py"))}
    assert {name: names for name, names in wiring.items() if names} == {
        "attnkit/grade/steps/session.py": sorted(imported(SESSION) & WIRING)}
    assert {"Sandbox", "Limits", "secret", "run_submission"} <= imported(SESSION)


def test_the_grader_never_imports_attnkit():
    importing = sorted(path.relative_to(REPO).as_posix() for path in (REPO / "grader").rglob("*.py")
                       if any(name == "attnkit" or name.startswith("attnkit.") for name in imported(path)))
    assert importing == []
