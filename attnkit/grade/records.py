"""Where results go in OUTDIR, the grader version, and whether a student's result is up to date.

Per student: ``OUTDIR/<student>.json`` (Gradescope) first, then ``OUTDIR/.attnkit/<student>.json``
(our record: ``SubmissionResult.to_dict()`` + ``submission_hash`` + ``grader_version``) last, as
the commit marker. A student is up to date when the record exists, parses, carries the same hash
and grader version, and its Gradescope file exists.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

RECORDS = ".attnkit"
VERSIONED = (("grader", (".py", ".yaml", ".json")), ("solutions", (".py",)))


def record_dir(out: Path) -> Path:
    return Path(out) / RECORDS


def record_path(out: Path, student: str) -> Path:
    return record_dir(out) / f"{student}.json"


def gradescope_path(out: Path, student: str) -> Path:
    return Path(out) / f"{student}.json"


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


def up_to_date(out: Path, student: str, submission_hash: str, version: str) -> bool:
    data = load(out, student)
    return (data is not None and data.get("submission_hash") == submission_hash
            and data.get("grader_version") == version and gradescope_path(out, student).is_file())
