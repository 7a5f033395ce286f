"""The public copy of a check module: the same file with its hidden checks cut out.

One source of truth: the release's ``grader/checks/check_<exercise>.py`` is the project's
file, byte for byte, minus the hidden ``test_*`` functions (decorators included).
"""
from __future__ import annotations

import ast
import re


class StripError(ValueError):
    """A check module whose hidden checks cannot be cut out cleanly."""


def public_source(source: str, hidden: set[str], filename: str = "<check module>") -> str:
    """``source`` without the top-level functions named in ``hidden``."""
    tree = ast.parse(source, filename)
    lines = source.splitlines(keepends=True)
    spans = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in hidden:
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            spans.append((start - 1, node.end_lineno))
    found = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if hidden - found:
        raise StripError(f"{filename}: hidden checks {sorted(hidden - found)} are not top-level functions")
    for start, stop in sorted(spans, reverse=True):
        del lines[start:stop]
    text = re.sub(r"\n{4,}", "\n\n\n", "".join(lines)).rstrip("\n") + "\n"
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    left = {node.name for node in ast.parse(text, filename).body if isinstance(node, functions)}
    if left & hidden:
        raise StripError(f"{filename}: could not cut out {sorted(left & hidden)}")
    return text
