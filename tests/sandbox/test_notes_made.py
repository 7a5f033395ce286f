"""Every note the sandbox's trusted side makes names a member of ``grader.results.NoteKind`` (read from the
source: a kind a transport makes only under a timeout or a full disk is covered too)."""
from __future__ import annotations

import ast
from pathlib import Path

from grader.results import NoteKind

HOST = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "host"


def made_kinds() -> list[tuple[str, int, str]]:
    """(file, line, the first argument's source) of every ``self._note(...)`` call in the host's modules."""
    found = []
    for path in sorted(HOST.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_note":
                found.append((path.name, node.lineno, ast.unparse(node.args[0]) if node.args else ""))
    return found


def test_each_kind_a_transport_makes_is_an_enum_member():
    made = made_kinds()
    members = {f"NoteKind.{name}" for name in NoteKind.__members__}
    assert not [m for m in made if m[2] not in members], "a note's kind is a NoteKind member, written as one"
    assert {kind for _, _, kind in made} == {"NoteKind.TIMEOUT", "NoteKind.TOO_SLOW", "NoteKind.OUTPUT_TRUNCATED",
                                            "NoteKind.MISSING_MODULE", "NoteKind.IMPORT_ERROR", "NoteKind.DISK_QUOTA"}
