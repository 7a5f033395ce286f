"""Named places in the reference solutions, and the edits of them that classic mistakes are made of.

A line of ``solutions/<module>.py`` that a mistake edits comes right after a marker comment of its own,
``# anchor: <function>.<what>`` (a name unique in its file). An :class:`Edit` names the anchor and replaces
``old`` by ``new``, where ``old`` is text that starts on the anchored line (it may run over the following
lines; marker lines are not part of the text it is matched against). Whoever edits that line of a solution
sees that a mistake depends on it; an edit that no longer applies raises :class:`PatchError` naming the mistake
and the anchor when the mistakes are loaded (``grader.mistakes``) and in ``python -m attnkit.devcheck``, never
silently at diagnosis time.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

MARKER = re.compile(r"^[ \t]*# anchor: (?P<name>\w+(?:\.\w+)*)[ \t]*\n", re.MULTILINE)


class PatchError(ValueError):
    """An edit whose anchor is missing, or whose ``old`` text does not start exactly once on the anchored line."""


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` (text starting on the line marked ``# anchor: <anchor>``) by ``new``."""

    anchor: str
    old: str
    new: str

    def __post_init__(self):
        if not (isinstance(self.anchor, str) and re.fullmatch(r"\w+(?:\.\w+)*", self.anchor)):
            raise TypeError(f"an Edit's anchor is a name (letters, digits, _ and dots), not {self.anchor!r}")
        if not (isinstance(self.old, str) and self.old and isinstance(self.new, str)):
            raise TypeError(f"Edit({self.anchor!r}): old is non-empty text and new is text")


Replacements = tuple[Edit, ...]


def anchors(source: str, what: str = "the source") -> dict[str, int]:
    """Anchor name -> the index (0-based) of the line it marks in the text without markers (:func:`strip`);
    ``PatchError`` when a name is used twice."""
    plain, _, places = _index(source, what)
    return {name: plain.count("\n", 0, start) for name, start in places.items()}


def strip(source: str) -> str:
    """``source`` without its marker lines (what a student or a notebook reader sees)."""
    return MARKER.sub("", source)


def apply(source: str, edits: Replacements, what: str = "the source") -> str:
    """``source`` with every edit made (all located before any is made; they may not overlap). The markers stay,
    but for one inside the text an edit replaces."""
    plain, original_of, places = _index(source, what)
    spans = []
    for edit in edits:
        if not isinstance(edit, Edit):
            raise TypeError(f"{what}: a patch is a tuple of Edit(anchor, old, new), not {edit!r}")
        if edit.anchor not in places:
            raise PatchError(f"{what}: no line is marked '# anchor: {edit.anchor}'")
        first = places[edit.anchor]
        last = plain.find("\n", first) + 1 or len(plain)
        found, at = [], plain.find(edit.old, first)
        while 0 <= at < last:
            found.append(at)
            at = plain.find(edit.old, at + 1)
        if len(found) != 1:
            raise PatchError(f"{what}: {edit.old!r} starts {len(found)} times on the line of anchor {edit.anchor!r} "
                             f"({plain[first:last].strip()!r}); an edit must match there exactly once")
        spans.append((original_of(found[0]), original_of(found[0] + len(edit.old) - 1) + 1, edit))
    spans.sort(key=lambda span: span[0])
    for (_, end, before), (start, _, after) in zip(spans, spans[1:]):
        if start < end:
            raise PatchError(f"{what}: the edits at anchors {before.anchor!r} and {after.anchor!r} overlap")
    for start, end, edit in reversed(spans):
        source = source[:start] + edit.new + source[end:]
    return source


def _index(source: str, what: str):
    """:func:`_markers` of ``source``, with ``PatchError`` naming ``what`` for an anchor used twice."""
    plain, original_of, places, twice = _markers(source)
    if twice:
        raise PatchError(f"{what}: the anchor {twice!r} marks two lines; each anchor names one place")
    return plain, original_of, places


@lru_cache(maxsize=64)
def _markers(source: str):
    """(``source`` without marker lines, a function mapping the position of a character of it to that character's
    position in ``source``, anchor name -> where its line starts in the text without markers, the first name
    used twice or None). Kept for the last sources: every mistake of a module edits the same one."""
    pieces, kept_at, removed, places, twice = [], [], [], {}, None
    position, dropped = 0, 0
    for match in MARKER.finditer(source):
        if match["name"] in places:
            twice = twice or match["name"]
        pieces.append(source[position:match.start()])
        places[match["name"]] = match.start() - dropped
        kept_at.append(match.start() - dropped)
        dropped += match.end() - match.start()
        removed.append(dropped)
        position = match.end()
    pieces.append(source[position:])

    def original_of(index: int) -> int:
        before = bisect.bisect_right(kept_at, index)  # markers removed before this character
        return index + (removed[before - 1] if before else 0)

    return "".join(pieces), original_of, places, twice
