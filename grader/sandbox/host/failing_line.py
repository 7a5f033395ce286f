"""What a child says the names on its failing line hold (``runtime.line_facts`` reads them in the child), checked
and bounded on the trusted side. Facts the student's process states about itself: they only word a message
(``grader.diagnose_error``), never decide a point."""
from __future__ import annotations

import re
from typing import Any

LINE_TEXT, LINE_NAMES, MAX_RANK = 200, 8, 32
LINE_NAME = re.compile(r"[A-Za-z_]\w{0,40}(\.m?T)?")
DTYPE_NAME = re.compile(r"[a-z]{1,10}[0-9]{0,3}")


def line_names(raw: Any) -> tuple[dict, ...]:
    """``{"name", "shape", "dtype"}`` for an array, ``{"name", "value"}`` for an int; anything else is dropped."""
    kept: list[dict[str, Any]] = []
    for item in raw[:LINE_NAMES] if isinstance(raw, list) else ():
        name = item.get("name") if isinstance(item, dict) else None
        if not (isinstance(name, str) and LINE_NAME.fullmatch(name)):
            continue
        shape, dtype, value = item.get("shape"), item.get("dtype"), item.get("value")
        if (isinstance(shape, list) and len(shape) <= MAX_RANK and isinstance(dtype, str)
                and DTYPE_NAME.fullmatch(dtype) and all(type(size) is int and 0 <= size < 2**40 for size in shape)):
            kept.append({"name": name, "shape": tuple(shape), "dtype": dtype})
        elif type(value) is int and abs(value) < 2**53:
            kept.append({"name": name, "value": value})
    return tuple(kept)
