"""What ``attnkit pack`` tells the student about the modules it zips: which do not import, which are stubs.

Importing runs the student's code, so it happens in the sandbox, as under ``attnkit check`` (one child per
module); finding stubs reads the source only (no code runs): a function is still a stub while its body
raises the ``NotImplementedError("implement ...")`` the exercises are handed out with.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import TIMEOUT_SECONDS

STUB_MESSAGE = "implement "  # how every stub's NotImplementedError starts (attnkit.release.stubs)


@dataclass(frozen=True)
class Health:
    broken: dict[str, str]              # module -> why it does not import (its own error, first line)
    stubs: dict[str, tuple[str, ...]]   # module -> the functions (``Class.method``) still raising the stub's error


def stub_functions(source: str) -> tuple[str, ...]:
    """The functions and methods of ``source`` whose body still raises the stub's NotImplementedError."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ()
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and _raises_stub(child):
                found.append(prefix + child.name)

    visit(tree, "")
    return tuple(found)


def _raises_stub(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and getattr(node.exc.func, "id", "") == "NotImplementedError" and node.exc.args \
                and isinstance(node.exc.args[0], ast.Constant) and str(node.exc.args[0].value).startswith(STUB_MESSAGE):
            return True
    return False


def examine(impl: Path, modules: dict[str, str], timeout: float = TIMEOUT_SECONDS) -> Health:
    """``modules``: exercise id -> module name, for the modules of ``impl`` being packed."""
    from grader.sandbox import Limits, graded

    stubs = {}
    for module in modules.values():
        names = stub_functions((impl / f"{module}.py").read_text(encoding="utf-8", errors="replace"))
        if names:
            stubs[module] = names
    broken = {}
    with graded(impl, Limits(timeout=timeout)) as session:
        for exercise, module in modules.items():
            failure = session.import_failure(exercise, module)
            if failure is not None and not failure.sibling:  # its own error, not a module it imports
                broken[module] = failure.message.splitlines()[0]
    return Health(broken, stubs)
