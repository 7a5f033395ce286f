"""The bytecode of a student's modules kept between ``attnkit check`` runs, beside the student's own files.

A child imports the submission's modules from the workspace's copy and writes their bytecode under the scratch
folder (``sys.pycache_prefix``, set by the zygote), where the submission's next children find it: within one run,
each module is compiled once. Between runs it was compiled again, in the first children of every run, the ones
every lane waits for (a model's exercise imports eight modules): 20 ms of the children's CPU per run of all 17.

So ``attnkit check`` (and ``watch``) keep it: when the session ends, the bytecode a child wrote for each module
is copied to the bytecode folder beside the student's source (``__pycache__``), named by the sha256 of the source
and of this Python's bytecode format; when a session starts, what is kept for a module's present source is put
where its children look. A workspace's copies all carry the same modification time (:data:`SOURCE_MTIME`), so the
import system's own check (the time and size the bytecode names) accepts bytecode made from another run's copy.

What this trusts: nothing the trusted side runs. The files are written by the student's children and read only by
the student's children; the trusted side copies at most :data:`PYC_BYTES` of a regular file and reads its first
16 bytes (the format, the time and the size it names), never the code. Bytecode a child wrote for another of the
submission's modules could only change what that module does in the student's own ``check``, as it can within one
run; ``attnkit grade`` and every other front end never keep or use it.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from ... import content_cache, files

FORMAT = b"attnkit kept bytecode 1\0"
SOURCE_MTIME = 1_000_000_000  # seconds: the time every copy in a workspace carries (workspace.copy_module)
PYC_BYTES = 16 << 20           # a child's bytecode file larger than this is not kept
HEADER = 16                    # magic (4), flags (4), source time (4), source size (4)


def key(source: bytes) -> str:
    """The name part of the bytecode kept for a module whose source is ``source``, in this Python."""
    return content_cache.sha256_of(FORMAT + importlib.util.MAGIC_NUMBER, (source,))[:32]


def kept_path(student_source: Path, digest: str) -> Path:
    return content_cache.entry(student_source, f"{student_source.stem}.attnkit", digest, ".pyc")


def child_path(prefix: Path, source: Path) -> Path:
    """Where a child whose ``sys.pycache_prefix`` is ``prefix`` reads and writes the bytecode of ``source`` (an
    absolute path): the source's folder mirrored under the prefix, as the import system places it."""
    tag = sys.implementation.cache_tag
    return prefix / str(source.parent).lstrip(os.sep) / f"{source.stem}.{tag}.pyc"


def matches(data: bytes, source: bytes) -> bool:
    """Whether ``data`` starts as this Python's bytecode of a copy of ``source`` in a workspace: its format, the
    time-based check, :data:`SOURCE_MTIME` and the source's size."""
    header = data[:HEADER]
    return (len(data) > HEADER and header[:4] == importlib.util.MAGIC_NUMBER
            and int.from_bytes(header[4:8], "little") == 0
            and int.from_bytes(header[8:12], "little") == SOURCE_MTIME & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == len(source) & 0xFFFFFFFF)


def place(modules: Path, submission: Path, prefix: Path, user: tuple[int, int] | None) -> set[str]:
    """Put the bytecode kept for each module of ``submission`` (the workspace's copies of ``modules``) where its
    children look (under ``prefix``, their bytecode folder); the folders made there belong to ``user`` (the
    children's), so that they write the other modules' bytecode beside. The file names of the modules placed."""
    placed: set[str] = set()
    for copy in sorted(submission.glob("*.py")):
        try:
            source = copy.read_bytes()
            data = files.read_regular(kept_path(modules / copy.name, key(source)), PYC_BYTES)
        except OSError:
            continue
        if not matches(data, source):
            continue
        target = child_path(prefix, copy)
        try:
            _make_folders(target.parent, prefix, user)
            with open(target, "xb") as sink:
                sink.write(data)
        except OSError:
            continue
        placed.add(copy.name)
    return placed


def keep(modules: Path, submission: Path, prefix: Path, placed: set[str] | frozenset[str] = frozenset()) -> int:
    """Keep the bytecode the children wrote for each module of ``submission`` beside its source in ``modules`` (one
    file per module, those of other sources removed); nothing for a module whose bytecode is missing, is not a
    regular file, or names another format, time or size, nor for the modules in ``placed`` (:func:`place` put
    their kept bytecode there: what is kept is already theirs). The number of modules kept."""
    kept = 0
    for copy in sorted(submission.glob("*.py")):
        if copy.name in placed:
            continue
        try:
            source = copy.read_bytes()
            data = files.read_regular(child_path(prefix, copy), PYC_BYTES)
        except OSError:
            continue
        if not matches(data, source):
            continue
        digest = key(source)
        entry = kept_path(modules / copy.name, digest)
        try:
            if files.read_regular(entry, PYC_BYTES) == data:
                continue
        except OSError:
            pass  # none kept yet (or not a regular file: replaced)
        content_cache.keep(entry, data, digest)
        kept += 1
    return kept


def _make_folders(folder: Path, prefix: Path, user: tuple[int, int] | None) -> None:
    """``folder`` and the folders between it and ``prefix``, made as needed and given to ``user``."""
    missing = []
    while not folder.exists() and folder != prefix.parent:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(mode=0o755)
        if user is not None:
            os.chown(made, *user)
