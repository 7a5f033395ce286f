"""Write an nbgrader course folder: ``nbgrader_config.py`` and ``source/<assignment>/*.ipynb``.

Nothing is half-written: the notebooks are written into a hidden staging folder beside
``source/<assignment>/`` and swapped in with renames, and ``nbgrader_config.py`` is written
atomically (``grader.atomic``). Everything else in the folder (``gradebook.db``,
``release/``, ``submitted/``...) is left alone.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from attnkit import __version__
from grader import atomic

ASSIGNMENT = "self_attention"
COURSE_ID = "attnkit"

CONFIG = '''\
# nbgrader configuration of the attnkit self-attention course.
# Written by `attnkit nbgrader export` (attnkit {version}); see docs/nbgrader.md.
#
# The test cells call `grader.notebook.run_check`: the kernel that runs `nbgrader autograde`
# needs the full attnkit (hidden checks, reference solutions); students' kernels need the
# student release (`attnkit release`: no solutions) to run the visible test cells.
c = get_config()  # noqa: F821 (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = {course_id!r}

# Seconds a single cell may run before nbgrader interrupts it (and the cell scores 0).
# The slowest check (the memory bound of tiled attention, n = 2048) takes well under a second.
c.Execute.timeout = 60
'''


class CourseExists(Exception):
    """The course folder is not empty and --force was not given."""


def config_text(course_id: str = COURSE_ID) -> str:
    return CONFIG.format(version=__version__, course_id=course_id)


def is_empty(folder: Path) -> bool:
    return not folder.exists() or (folder.is_dir() and not any(folder.iterdir()))


def write_course(course_dir: Path, notebooks: dict[str, dict], *, course_id: str = COURSE_ID,
                 assignment: str = ASSIGNMENT, force: bool = False) -> list[Path]:
    """Write the course; returns the files written. ``CourseExists`` if not empty and not ``force``."""
    course_dir = Path(course_dir)
    if course_dir.exists() and not course_dir.is_dir():
        raise NotADirectoryError(str(course_dir))
    if not force and not is_empty(course_dir):
        raise CourseExists(str(course_dir))
    source = course_dir / "source"
    source.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{assignment}.new-", dir=source))
    try:
        written = []
        for name, content in notebooks.items():
            target = staging / name
            target.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(source / assignment / name)
        _swap_in(staging, source / assignment)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    config = course_dir / "nbgrader_config.py"
    atomic.write_text(config, config_text(course_id))
    return [config] + written


def _swap_in(staging: Path, target: Path) -> None:
    """Put ``staging`` where ``target`` is, replacing it as a whole (two renames)."""
    staging.chmod(0o755)
    if not target.exists():
        staging.rename(target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    old.rmdir()
    target.rename(old)
    try:
        staging.rename(target)
    except OSError:
        old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)


