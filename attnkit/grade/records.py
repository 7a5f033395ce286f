"""Where results go in OUTDIR, the grader version, and whether a student's result is up to date.

Per student: ``OUTDIR/<student>.json`` (Gradescope) first, then ``OUTDIR/.attnkit/<student>.json``
(our record: ``SubmissionResult.to_dict()`` + ``submission_hash`` + ``grader_version``) last, as
the commit marker. A student is up to date when the record exists, reads back as a result, carries the same
hash and grader version, and its Gradescope file exists. A record this version cannot read back (a note kind it
does not know, written by a newer attnkit, or a damaged file) is out of date: the student is graded again.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from grader.results import SubmissionResult

RECORDS = ".attnkit"
VERSIONED = (("grader", (".py", ".yaml", ".json")), ("solutions", (".py",)))


def record_dir(out: Path) -> Path:
    return Path(out) / RECORDS


SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@+")
RESERVED = {"summary", "grades"}  # OUTDIR/summary.json (the class's); grades.* kept free too
MAX_STEM = 100                    # bytes of a student's file stem: with ".json" and an atomic write's suffix, well
#                                   under the 255 bytes a file name may have


def file_stem(student: str) -> str:
    """The stem of a student's files in OUTDIR: the id itself when it is plain (letters, digits, ``._-@+``, not
    hidden, not a class file's name, at most :data:`MAX_STEM` bytes); otherwise ``~`` and the id's UTF-8 bytes with
    every other byte as ``%XX`` (so no two ids share a stem, and none clashes with a plain one), cut to
    :data:`MAX_STEM` with a digest of the whole id when longer. The record inside holds the id itself."""
    if student and set(student) <= SAFE and not student.startswith(".") and student.lower() not in RESERVED \
            and len(student) <= MAX_STEM:
        return student
    raw = student.encode("utf-8", "surrogateescape")
    stem = "~" + "".join(chr(byte) if chr(byte) in SAFE else f"%{byte:02X}" for byte in raw)
    if len(stem) > MAX_STEM:
        stem = stem[:MAX_STEM - 17] + "~" + hashlib.sha256(raw).hexdigest()[:16]
    return stem


def record_path(out: Path, student: str) -> Path:
    return record_dir(out) / f"{file_stem(student)}.json"


def gradescope_path(out: Path, student: str) -> Path:
    return Path(out) / f"{file_stem(student)}.json"


@lru_cache(maxsize=1)
def grader_version() -> str:
    """attnkit's version + a sha256 of the grader's sources (checks, mistakes, sandbox...) and the solutions."""
    import attnkit
    import grader

    root = Path(grader.__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder, suffixes in VERSIONED:
        files = sorted(p for p in (root / folder).rglob("*")
                       if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts)
        for path in files:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"{attnkit.__version__}+{digest.hexdigest()[:16]}"


def load(out: Path, student: str) -> dict | None:
    try:
        with open(record_path(out, student), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def result(data: dict) -> SubmissionResult | None:
    """The result a loaded record holds; None when this version cannot read it back (see the module's text)."""
    try:
        return SubmissionResult.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def up_to_date(out: Path, student: str, submission_hash: str, version: str) -> bool:
    data = load(out, student)
    return (data is not None and data.get("submission_hash") == submission_hash
            and data.get("grader_version") == version and gradescope_path(out, student).is_file()
            and result(data) is not None)
