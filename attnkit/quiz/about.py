"""Which shipped questions are about which mistakes and concepts, answered without loading the banks.

``attnkit check`` queues the questions about every mistake it diagnosed (``progress.note_mistakes``). Reading and
validating every bank for that costs more CPU than the rest of the check's own side. A build that ships the banks
(the student release) writes ``quizzes/about.json`` beside them: the sha256 of each bank file and, in the loaded
banks' order, each question's id with the mistakes and tags it is about. While the shipped banks are exactly the ones
indexed (the same names, the same bytes) the index answers; otherwise (an edited bank, the project's checkout, which
ships none) the index the last load of these same banks kept answers (:func:`remember`: ``grader.parse_cache``, the
``__pycache__`` beside the banks), and failing that the banks are loaded as before.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .shipped import default_dir, default_files

INDEX_NAME = "about.json"


def _digests(files: list[Path]) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in files}


def write_index(folder: Path) -> bool:
    """Write the index of the banks in ``folder`` (a build step); none (False) when a bank is broken, so that the
    banks are loaded, and refused, as without an index."""
    from .bank import BankError, load_bank

    files = sorted(folder.glob("*.yaml"))
    try:
        bank = load_bank(files)
    except BankError:
        return False
    index = {"banks": _digests(files), "about": [[q.id, [*q.mistakes, *q.tags]] for q in bank.questions]}
    (folder / INDEX_NAME).write_text(json.dumps(index, separators=(",", ":")) + "\n", encoding="utf-8")
    return True


def indexed() -> list[tuple[str, set[str]]] | None:
    """(question id, the mistakes and tags it is about) of every shipped question, in the banks' order, from the
    shipped index or else the one kept for these banks' bytes; None without an index of the shipped banks as they
    are."""
    files = default_files()
    try:
        index = json.loads((default_dir() / INDEX_NAME).read_bytes())
        if index["banks"] == _digests(files):
            return [(qid, set(about)) for qid, about in index["about"]]
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none shipped (the checkout), or not for these banks
    from grader import parse_cache

    try:
        found, about = parse_cache.read(default_dir() / INDEX_NAME, _key(files))
    except OSError:   # a bank that cannot be read: loading the banks says which
        return None
    return [(qid, set(subjects)) for qid, subjects in about] if found else None


def remember(files: list[Path], listed: list[tuple[str, set[str]]]) -> None:
    """Keep ``listed`` (what :func:`indexed` returns), loaded from the bank ``files``, for the next :func:`indexed`
    while those files hold the same bytes (``grader.parse_cache``; best effort: an unwritable folder only means the
    banks are loaded again next time)."""
    from grader import parse_cache

    try:
        key = _key(files)
    except OSError:
        return
    parse_cache.write(default_dir() / INDEX_NAME, key, [[qid, sorted(about)] for qid, about in listed])


def _key(files: list[Path]) -> str:
    """The cache key of an index of the bank ``files``: their names and bytes."""
    from grader import parse_cache

    return parse_cache.key(json.dumps([path.name for path in files]).encode(), tuple(files))
