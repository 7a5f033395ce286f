"""``attnkit quiz --import-feedback FILE``: the classic mistakes named in a graded JSON from ``attnkit grade``.

Two shapes are read: the per-student ``<student>.json`` (``exercises[].checks[].mistake``) and the
Gradescope ``results.json`` (``tests[].tags``, which carry the mistake id of a failed check). Only ids the
checks really diagnose are kept, so anything else in the file is ignored.
"""
from __future__ import annotations

import json
from pathlib import Path

MAX_BYTES = 20 * 2**20  # a class's graded JSON is far smaller; refuse to read something huge


class FeedbackError(ValueError):
    """The file cannot be read as graded feedback; the message says why and what to do."""


def _listed(data, key: str) -> list:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def mistakes_in(data, known) -> list[str]:
    """Diagnosed mistake ids in a parsed graded JSON, in order of appearance, each once."""
    found = []
    for exercise in _listed(data, "exercises"):
        found += [check.get("mistake") for check in _listed(exercise, "checks") if isinstance(check, dict)]
    for test in _listed(data, "tests"):
        found += _listed(test, "tags")
    return list(dict.fromkeys(item for item in found if isinstance(item, str) and item in known))


def read(path: Path, known) -> list[str]:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise FeedbackError(f"{path} is {size // 2**20} MB: not a graded JSON from attnkit grade")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise FeedbackError(f"cannot read {path} ({error.strerror or error})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FeedbackError(f"{path} is not JSON ({error}); give the <student>.json that attnkit grade wrote, "
                            "or a Gradescope results.json") from None
    if not graded(data):
        raise FeedbackError(f"{path} is JSON but not graded feedback of one student (a class's summary.json, say); "
                            "give the <student>.json that attnkit grade wrote, or a Gradescope results.json")
    return mistakes_in(data, known)


def graded(data) -> bool:
    """One student's graded feedback: a record of attnkit grade (its ``student`` and ``exercises``), or
    Gradescope tests with a score or status (a class's summary.json has ``exercises`` too, and no ``student``)."""
    record = isinstance(data, dict) and isinstance(data.get("student"), str) and isinstance(data.get("exercises"), list)
    return record or any(isinstance(t, dict) and ("score" in t or "status" in t) for t in _listed(data, "tests"))
