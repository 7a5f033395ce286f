"""Which shipped questions are about which mistakes and concepts, answered without loading the banks.

``attnkit check`` queues the questions about every mistake it diagnosed (``progress.note_mistakes``). Reading and
validating every bank for that costs more CPU than the rest of the check's own side. A build that ships the banks
(the student release) writes ``quizzes/about.json`` beside them: the sha256 of each bank file and, in the loaded
banks' order, each question's id with the mistakes and tags it is about. While the shipped banks are exactly the ones
indexed (the same names, the same bytes) the index answers; otherwise (an edited bank, the project's checkout, which
ships none) the index the last load of these banks left in the per-user folder answers (:func:`remember`), and
failing that the banks are loaded as before.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .shipped import default_dir, default_files

INDEX_NAME = "about.json"
CACHE_FOLDER = "cache"  # in the per-user attnkit folder (attnkit.userdata.home)


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
    shipped index or else the remembered one; None without an index of the shipped banks as they are."""
    try:
        digests = _digests(default_files())
    except OSError:
        return None
    for path in (default_dir() / INDEX_NAME, _cache_file()):
        try:
            index = json.loads(path.read_bytes())
            if index["banks"] == digests:
                return [(qid, set(about)) for qid, about in index["about"]]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def remember(digests: dict[str, str], listed: list[tuple[str, set[str]]]) -> None:
    """Keep ``listed`` (what :func:`indexed` returns) of the shipped banks whose files had ``digests`` when they were
    loaded, for the next :func:`indexed` (in the per-user folder: the checkout ships no index). Best effort: a folder
    that cannot be written only means the banks are loaded again next time."""
    from attnkit import atomic

    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, json.dumps({"banks": digests, "about": [[qid, sorted(about)]
                                                                                 for qid, about in listed]}))
    except OSError:
        pass


def shipped_digests() -> dict[str, str]:
    """The sha256 of each shipped bank file, by name (what an index is valid for)."""
    return _digests(default_files())


def _cache_file() -> Path:
    """The remembered index of the banks in :func:`default_dir` (one per banks' folder)."""
    from attnkit.userdata import home

    folder = hashlib.sha256(str(default_dir().resolve()).encode()).hexdigest()[:16]
    return home() / CACHE_FOLDER / f"about-{folder}.json"
