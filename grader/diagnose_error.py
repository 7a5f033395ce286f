"""Explain an exception the student's code raised from its failing line, whatever the function.

The sandbox reports, with a ``StudentRaised``, the innermost line of the student's files where the exception
passed, and what the names on that line held (arrays by shape and dtype, ints by value; bounded and checked
in ``grader.sandbox.host.failing_line.line_names``). Those are facts the student's process states about itself:
they word a message here and never decide a point (the verdict is the check's, made before any diagnosis).

:func:`explain` sorts the exception into a family of numpy errors (``grader.mistakes.generic``) by its type and
the numpy wording of its message, and says what the line's arrays tell about it::

    a matrix product got operands whose inner sizes disagree at attention.py, line 18, `scores = Q @ K.T`:
    Q is (2, 3, 4, 8), K.T is (8, 6, 3, 2); `.T` reversed every axis of the batched K, not only the last two

Covered: matmul, ``np.dot`` and ``einsum`` mismatches, broadcasting, reshape, unpacking a fixed rank, axis
numbers out of range, indexing a 0-d array (``np.asarray(None)``), an index past the end of an axis, and the
student's own ``assert``.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .mistakes import generic
from .mistakes.model import Mistake

FAMILIES: tuple[tuple[str, str, Mistake], ...] = (
    # (exception type, regular expression on its message's first line, family)
    ("ValueError", r"matmul|not aligned|size \d+ is different from \d+", generic.ERROR_MATMUL),
    ("ValueError", r"einstein sum|einsum|subscripts", generic.ERROR_EINSUM),
    ("ValueError", r"could not be broadcast|broadcast", generic.ERROR_BROADCAST),
    ("ValueError", r"cannot reshape|reshape", generic.ERROR_RESHAPE),
    ("ValueError", r"values to unpack", generic.ERROR_UNPACK),
    ("TypeError", r"cannot unpack", generic.ERROR_UNPACK),
    ("AxisError", r"", generic.ERROR_AXIS),
    ("ValueError", r"axis -?\d+ is out of bounds", generic.ERROR_AXIS),
    ("IndexError", r"0-dimensional|too many indices for array: array is 0", generic.ERROR_INDEX_0D),
    ("IndexError", r"boolean index did not match", generic.ERROR_BOOLEAN_INDEX),
    ("IndexError", r"out of bounds|index -?\d+", generic.ERROR_INDEX),
    ("AssertionError", r"^$", generic.ERROR_OWN_ASSERT),
)


def _shape(shape: Any) -> str:
    return str(tuple(shape))


def _arrays(names: tuple) -> list[tuple[str, tuple]]:
    return [(item["name"], tuple(item["shape"])) for item in names if "shape" in item]


def _details(family: Mistake, message: str, names: tuple) -> list[str]:
    """What the line's values add to the family's words."""
    arrays = _arrays(names)
    notes = []
    if family in (generic.ERROR_MATMUL, generic.ERROR_EINSUM, generic.ERROR_BROADCAST):
        batched_t = [name[:-2] for name, shape in arrays if name.endswith(".T") and len(shape) > 2]
        notes += [f"`.T` reversed every axis of the batched {name}, not only the last two" for name in batched_t]
        if "not aligned" in message and any(len(shape) > 2 for _, shape in arrays):
            notes.append("np.dot does not treat leading axes as a batch")
    if family is generic.ERROR_BROADCAST:
        for name, shape in arrays:
            for other, wider in arrays:
                if len(wider) == len(shape) + 1 and wider[:-1] == shape:
                    notes.append(f"{name} has no last axis to line up with {other}'s: a reduction without "
                                 f"keepdims=True dropped it")
    if family is generic.ERROR_UNPACK:
        found = re.search(r"expected (\d+)", message)
        notes += [f"{name} has {len(shape)} axes" + (f" where the unpacking expects {found.group(1)}" if found else "")
                  for name, shape in arrays]
    if family is generic.ERROR_INDEX_0D:
        notes += [f"{name} is a 0-d array" for name, shape in arrays if not shape]
    if family is generic.ERROR_INDEX:
        index = re.search(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", message)
        if index:
            loops = [item["name"] for item in names if item.get("value") == int(index.group(1))]
            notes.append(f"index {index.group(1)} on an axis of size {index.group(3)}"
                         + (f" ({', '.join(loops)} = {index.group(1)}): its bound is another axis's size"
                            if loops else ""))
    return notes


def explain(error_type: str, message: str, where: str = "", line: str = "", names: tuple = ()) -> Mistake | None:
    """The numpy error family of an exception, worded with its failing line (None for an exception of no family)."""
    first = message.split("\n", 1)[0]
    family = next((mistake for kind, pattern, mistake in FAMILIES
                   if kind == error_type and re.search(pattern, first)), None)
    if family is None:
        return None
    place = ""
    if line:
        shown = line if len(line) <= 80 else line[:77] + "..."
        place = f"at {where}, `{shown}`" if where else f"at `{shown}`"
        values = [f"{item['name']} is {_shape(item['shape'])}" if "shape" in item
                  else f"{item['name']} = {item['value']}" for item in names]
        if values:
            place += ": " + ", ".join(values)
    details = dict.fromkeys(_details(family, first, names))
    words = "; ".join([family.looks_like + (f" {place}" if place else ""), *details])
    return replace(family, looks_like=words)
