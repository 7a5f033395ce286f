"""In the child: what the names on the student's failing line hold, as plain data for the trusted side
(``runtime.Runtime.describe_error``; ``grader/sandbox/host/failing_line.py`` checks what arrives).

Loaded by path by the zygote (``attnkit_sandbox_failing_line``) before ``runtime.py``. Self-contained: the standard
library and numpy.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

LINE_TEXT = 200    # characters of the failing line reported
LINE_NAMES = 8     # names of that line whose values are described
LINE_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(\.m?T\b)?")  # a name, and a transpose of it


def line_facts(frame, line: str) -> dict:
    """The failing line of the student's file and what its names hold, as plain data: for each of the first
    :data:`LINE_NAMES` names (``K`` or ``K.T``) whose value is exactly an ndarray its shape and dtype name (``.T``
    reverses the shape, as numpy does), for an exact int its value. Nothing of the student's runs: values are
    read from the frame's namespaces, and only exact builtin and numpy types are described."""
    text = line.strip()[:LINE_TEXT]
    names: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    local, module = frame.f_locals, frame.f_globals
    for match in LINE_NAME.finditer(text):
        name, transpose = match.group(1), match.group(2) or ""
        if (name, transpose) in seen or len(names) >= LINE_NAMES:
            continue
        seen.add((name, transpose))
        found = local[name] if name in local else module.get(name)
        if type(found) is np.ndarray:
            shape = [int(size) for size in found.shape]
            if transpose == ".T" or (transpose == ".mT" and len(shape) >= 2):
                shape = shape[::-1] if transpose == ".T" else shape[:-2] + shape[-2:][::-1]
            names.append({"name": name + transpose, "shape": shape, "dtype": found.dtype.name})
        elif type(found) is int and not transpose and abs(found) < 2**53:
            names.append({"name": name, "value": found})
    return {"line": text, "names": names}
