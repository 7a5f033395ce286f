"""What the checkout's caches share: a file kept in the bytecode folder beside a source, named by the sha256 of
everything it was made from, written whole, and the only one of its kind there (writing it removes the entries made
from other contents). Used by ``grader.parse_cache`` (parsed YAML, the quiz index) and ``grader.kept_results`` (the
reference's results). Writing is best effort: a read-only folder only costs the work again."""
from __future__ import annotations

import glob
import hashlib
import importlib.util
from pathlib import Path
from typing import Iterable

from . import atomic


def folder(source: Path) -> Path:
    """Where the entries made from the file ``source`` are: the bytecode folder of the folder holding it
    (``__pycache__`` beside it, or its place under ``sys.pycache_prefix``), so that files of other folders never share
    or evict them."""
    return Path(importlib.util.cache_from_source(str(source.with_suffix(".py")))).parent


def sha256_of(prefix: bytes, parts: Iterable[bytes]) -> str:
    """The sha256 (hex) of ``prefix`` and ``parts``, each part length-prefixed so that no two lists of parts run
    together into the same bytes."""
    digest = hashlib.sha256(prefix)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def entry(source: Path, name: str, digest: str, suffix: str) -> Path:
    """The file ``NAME.DIGEST SUFFIX`` kept for the file ``source`` (in :func:`folder`)."""
    return folder(source) / f"{name}.{digest}{suffix}"


def keep(kept: Path, data: bytes, digest: str) -> None:
    """Write ``data`` as ``kept`` (an :func:`entry`; a reader never sees half of it) and remove the entries of the same
    kind made from other contents (the files of its folder named as it is but for another digest of the same length);
    nothing when the folder cannot be written."""
    head, _, tail = kept.name.rpartition(digest)
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(kept, data, durable=False)
        for older in kept.parent.glob(f"{glob.escape(head)}{'?' * len(digest)}{glob.escape(tail)}"):
            if older != kept:
                older.unlink(missing_ok=True)
    except OSError:
        return
