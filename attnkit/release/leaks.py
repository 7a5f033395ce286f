"""What must never be in a student release, and a scan for it.

* a line of a solution body: every non-trivial line between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` of ``solutions/*.py`` (compared as whole lines, stripped, with and
  without a trailing comment; "trivial" is shorter than 12 characters or an opening bracket
  such as ``raise ValueError(``);
* the name of a hidden check;
* an import of the ``solutions`` package.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from .stubs import BEGIN, END

TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt", ".cfg", ".ini", ".sh"}
MIN_LENGTH = 12


@dataclass(frozen=True)
class Leak:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def forms(line: str) -> set[str]:
    """A line as compared: stripped, and stripped of a trailing ``# comment``."""
    stripped = line.strip()
    return {stripped, stripped.split("#", 1)[0].strip()} - {""}


def trivial(code: str) -> bool:
    return len(code) < MIN_LENGTH or code.endswith(("(", "[", "{"))


def solution_lines(solutions_dir: Path) -> set[str]:
    """Every non-trivial line of every solution body (in the forms of :func:`forms`)."""
    found: set[str] = set()
    for path in sorted(Path(solutions_dir).glob("*.py")):
        inside = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if BEGIN.match(line):
                inside = True
            elif END.match(line):
                inside = False
            elif inside:
                code = line.split("#", 1)[0].strip()
                if code and not trivial(code):
                    found.add(code)
    return found


def files(folder: Path) -> list[Path]:
    return sorted(p for p in Path(folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def scan(folder: Path, solution: set[str], hidden_names: set[str]) -> list[Leak]:
    """Every solution line, hidden check name and ``solutions`` import found under ``folder``."""
    leaks = []
    for path in files(folder):
        relative = path.relative_to(folder).as_posix()
        data = path.read_bytes()
        for name in sorted(hidden_names):
            if name.encode() in data:
                leaks.append(Leak(relative, 0, f"names the hidden check {name}"))
        if path.suffix not in TEXT_SUFFIXES:
            continue
        text = data.decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if forms(line) & solution:
                leaks.append(Leak(relative, number, f"a line of a solution body: {line.strip()}"))
        if path.suffix == ".py":
            leaks.extend(Leak(relative, n, "imports the solutions package") for n in solution_imports(text))
    return leaks


def solution_imports(source: str) -> list[int]:
    """Line numbers of ``import solutions...`` / ``from solutions... import``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        if any(n == "solutions" or n.startswith("solutions.") for n in names):
            found.append(node.lineno)
    return found
