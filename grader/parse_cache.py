"""A checkout's cache of its YAML data files' data, parsed and checked once per content (used by ``grader.parsed``).

Where no build shipped a parsed copy (the project's checkout), every ``attnkit check`` would import the YAML library,
parse the curriculum and the document values and check the curriculum against its schema again. The first run
writes what it parsed and checked into the ``__pycache__`` beside the file (where its folder's bytecode goes); the
next runs read that instead while the file is unchanged. An entry is named by the sha256 of everything its verdict
rests on: the file's bytes and the files that checked it (the schema, its checker); an edited file, schema or
checker is a different name, so an entry is never used for another content. Only data that passed its check is
written: a broken file is parsed and refused again at every run, with the same message. Writing is best effort (a
read-only install keeps reading the file itself); each file keeps one entry (writing one removes the older ones of
that file's name in that folder: ``grader.content_cache``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import content_cache

FORMAT = b"attnkit-parse-cache 1\n"


def key(data: bytes, checked_by: tuple[Path, ...] = ()) -> str:
    """The sha256 naming the entry of a file whose bytes are ``data``, checked by the files ``checked_by``."""
    return content_cache.sha256_of(FORMAT, (data, *(path.read_bytes() for path in checked_by)))


def _entry(path: Path, digest: str) -> Path:
    return content_cache.entry(path, path.name, digest, ".json")


def read(path: Path, digest: str) -> tuple[bool, Any]:
    """(True, the data) when an entry for the file ``path`` with this ``digest`` is there and whole; else (False, None)
    (no entry, half a file, not JSON)."""
    try:
        found = json.loads(_entry(path, digest).read_bytes())
    except (OSError, ValueError):
        return False, None
    if isinstance(found, dict) and found.get("key") == digest and "data" in found:
        return True, found["data"]
    return False, None


def write(path: Path, digest: str, data: Any) -> None:
    """Keep ``data`` (parsed from the file ``path``, and checked) under ``digest``; nothing when JSON does not carry it
    as it is (a date, a key that is no string) or the folder cannot be written."""
    text = json.dumps({"key": digest, "data": data}, ensure_ascii=False, separators=(",", ":"), default=repr)
    if json.loads(text)["data"] != data:
        return
    entry = _entry(path, digest)
    content_cache.keep(entry, text.encode("utf-8"), digest)
