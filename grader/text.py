"""Text from the student's side, made safe to show: every control or format character escaped.

A student's exception message, printed output or class name reaches the instructor's terminal and
``summary.txt`` and the student's own results. Raw escape sequences there can clear a screen,
retitle a terminal or hide a line; bidirectional controls can make a line read otherwise. Every
character that is not printable (ANSI C0/C1 controls, Unicode format and separator characters)
becomes its ``\\x..``/``\\u....`` escape; line breaks and tabs stay.
"""
from __future__ import annotations

KEPT = "\n\t"


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with every non-printable character but a line break or tab escaped."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char in KEPT else _escape(char) for char in text)
