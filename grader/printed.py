"""What the student's own code printed (``print()``, ``sys.stdout``, ``sys.stderr``), shown back to them.

The child writes it to a capped file (``grader.sandbox.host.transport``); nothing in it is ever read as a result.
``attnkit check`` shows it after each exercise's result and the pytest plugin after each check, bounded
(:data:`SHOWN_CHARACTERS`, :data:`SHOWN_LINES`), every line marked as the student's.
"""
from __future__ import annotations

from pathlib import Path

SHOWN_CHARACTERS = 2000  # of one exercise's (or one check's) output
SHOWN_LINES = 20
MARK = "  | "
HEADER = "{label}: printed by your code (print, stdout, stderr){more}:"


def read(path: Path, start: int = 0) -> tuple[str, int]:
    """(up to :data:`SHOWN_CHARACTERS` characters of ``path`` from byte ``start``, the bytes there are past
    ``start``); ``("", 0)`` when the file is missing."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, 2) - start
            handle.seek(start)
            data = handle.read(SHOWN_CHARACTERS * 4)  # UTF-8: at most 4 bytes a character
    except OSError:
        return "", 0
    return data.decode("utf-8", "replace")[:SHOWN_CHARACTERS], max(size, 0)


def block(label: str, text: str, size: int) -> list[str]:
    """The lines that show ``text`` (the first part of ``size`` bytes of output), marked as the student's;
    empty when nothing but whitespace was printed."""
    if not text.strip():
        return []
    lines = text.rstrip().splitlines()[:SHOWN_LINES]
    shown = sum(len(line.encode("utf-8", "replace")) + 1 for line in lines)
    more = f", the first {len(lines)} lines of {size} bytes" if size > shown else ""
    return [HEADER.format(label=label, more=more)] + [MARK + line for line in lines]
