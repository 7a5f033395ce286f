"""The per-user attnkit folder and, inside it, one folder per course for its state (quiz progress, hints shown).

The folder is ``$ATTNKIT_HOME``, else the platform's user data dir. A course is a student release (its id,
written by ``attnkit release`` into ``grader/course.json``) or else the checkout the kit runs from (its
folder), so two course copies never see each other's hint progress or quiz schedule.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

COURSE_FILE = "course.json"  # beside grader/curriculum.yaml in a release
COURSE_FORMAT = "attnkit-course"
_RELEASE_ID = re.compile(r"^[0-9a-f]{8,64}$")


def home() -> Path:
    """The per-user attnkit folder (not created here: writers make it on demand)."""
    if os.environ.get("ATTNKIT_HOME"):
        return Path(os.environ["ATTNKIT_HOME"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("attnkit", appauthor=False))


@dataclass(frozen=True)
class Course:
    key: str    # the name of the course's folder under ``home()/courses``
    label: str  # what a person reads: "release 1a2b3c4d5e6f7a8b" or "the checkout in /path"


def course() -> Course:
    """The course this attnkit belongs to: the release named by ``grader/course.json``, else the checkout."""
    from grader import curriculum

    grader_dir = Path(curriculum.__file__).resolve().parent
    try:
        data = json.loads((grader_dir / COURSE_FILE).read_text(encoding="utf-8"))
        release = data["id"] if isinstance(data, dict) and data.get("format") == COURSE_FORMAT else None
    except (OSError, ValueError):
        release = None
    if isinstance(release, str) and _RELEASE_ID.match(release):
        return Course(f"release-{release}", f"release {release}")
    root = grader_dir.parent
    return Course(f"checkout-{hashlib.sha256(str(root).encode()).hexdigest()[:16]}", f"the checkout in {root}")


def course_home(which: Course | None = None) -> Path:
    """This course's state folder (not created here)."""
    return home() / "courses" / (which or course()).key


def state_file(name: str, which: Course | None = None) -> tuple[Path, str | None]:
    """The course's file ``name`` and, when a file of that name from before state was kept per course was
    just moved into this course (the first course to ask for it takes it), a note that says so."""
    which = which or course()
    path = course_home(which) / name
    legacy = home() / name
    if path.exists() or not legacy.is_file():
        return path, None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(legacy, path)
    except OSError:
        return path, None
    return path, (f"{legacy}, from before attnkit kept state per course, was moved to this course "
                  f"({which.label}): {path}")


def prepare(path: Path, which: Course | None = None) -> None:
    """Make the folder of the course file ``path`` before a write, with a ``course.json`` in it that says which
    course it belongs to (for a person looking at the folder). OSError when it cannot be made."""
    which = which or course()
    path.parent.mkdir(parents=True, exist_ok=True)
    note = path.parent / COURSE_FILE
    if path.parent == course_home(which) and not note.exists():
        from grader import atomic

        atomic.write_text(note, json.dumps({"format": "attnkit-course-state", "course": which.label}) + "\n")
