"""Atomic file writes: a temporary file in the same folder, fsync, ``os.replace``, fsync of the folder.

A reader (or a re-run after kill -9 or power loss) sees either the old file or the new one,
never half of one. Leftover ``*.tmp`` files from an interrupted write are removed by :func:`sweep`.
A cache (``durable=False``: the checkout's parsed YAML, its kept reference results) skips the fsyncs: a
reader still never sees half a file, and one lost in a power cut is computed again.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

TMP_SUFFIX = ".tmp"


def write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        _fsync_dir(path.parent)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8", "surrogateescape"))


def write_json(path: Path, data) -> None:
    """Deterministic JSON (sorted keys, fixed indentation), written atomically."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=True) + "\n")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sweep(folder: Path) -> int:
    """Remove temporary files an interrupted write left in ``folder``; returns how many."""
    removed = 0
    for path in Path(folder).glob(f".*{TMP_SUFFIX}"):
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed
