"""Assemble the student release in a temporary folder, check it, then move it into place.

What goes in (see docs/ARCHITECTURE.md and the student README this writes):

* ``exercises/``: the stubs, generated from ``solutions/`` (attnkit.release.stubs);
* ``grader/``: the project's grader, byte for byte, except: the check modules lose their
  hidden checks (attnkit.release.public), ``reference.py`` and ``mistakes/`` are replaced by
  replaying versions, ``replay.py`` and ``recorded/`` (the recording) are added, and a
  top-level module that imports ``solutions`` is left out;
* ``attnkit/``: the CLI with the students' verbs only (check, watch, hint, pack, quiz); ``attnkit --help``
  lists just those, and naming another verb says it is not part of this installation;
* ``quizzes/``, ``README.md`` (for students), ``pyproject.toml`` (no solutions).

Nothing is moved into place unless the recording replays every public check (attnkit.release.verify)
and the scan finds no solution line, no hidden check name and no ``solutions`` import
(attnkit.release.leaks).
"""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from attnkit.archive import write_zip
from grader import curriculum

from . import assemble, leaks
from .sources import BuildFailed, ReleaseError, Sources

__all__ = ["BuildFailed", "Release", "ReleaseError", "build", "check_target"]

NOT_EMPTY = "attnkit release: {path} is not empty; choose a new or empty folder, or pass --force to replace it"
ZIP_EXISTS = "attnkit release: {path} already exists; pass --force to replace it"
IN_SOURCE = ("attnkit release: {path} would overwrite or sit inside the attnkit sources in {root}; "
             "choose another folder (e.g. dist/student)")
NOT_A_FOLDER = "attnkit release: {path} exists and is not a folder"
MISSING_DEPENDENCY = ("attnkit release: {missing}; add it to --exercises (the stubs import it, so students "
                      "implement it too)")


@dataclass(frozen=True)
class Release:
    folder: Path
    archive: Path
    files: int
    public_checks: int
    public_points: float
    hidden_checks: int
    recorded_calls: int
    recorded_bytes: int
    unverified: tuple[str, ...] = ()


def check_target(out: Path, archive: Path, force: bool, sources: Sources) -> None:
    """Refuse a target that would destroy something we did not write (see the messages)."""
    resolved = out.resolve()
    packages = {sources.attnkit, sources.grader, sources.quizzes, sources.solutions,
                sources.solutions.parent / "exercises"}
    for package in packages:
        if resolved == package or package in resolved.parents or resolved in package.parents:
            raise ReleaseError(IN_SOURCE.format(path=out, root=package.parent))
    if out.exists() and not out.is_dir():
        raise ReleaseError(NOT_A_FOLDER.format(path=out))
    if out.is_dir() and any(out.iterdir()) and not force:
        raise ReleaseError(NOT_EMPTY.format(path=out))
    if archive.exists() and not force:
        raise ReleaseError(ZIP_EXISTS.format(path=archive))


def build(out: Path, force: bool = False, exercises: tuple[str, ...] | None = None) -> Release:
    """Write the release to ``out`` and ``out``.zip beside it (see the module docstring).

    ``exercises``: a course's subset (``grader.curriculum.select``); every exercise by default.
    """
    missing = curriculum.missing_dependencies(exercises or ())
    if missing:
        raise ReleaseError(MISSING_DEPENDENCY.format(missing="; ".join(missing)))
    sources = Sources.find()
    out = Path(out).absolute()
    archive = out.with_name(out.name + ".zip")
    check_target(out, archive, force, sources)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    try:
        tree = staging / out.name
        summary = assemble.assemble(tree, sources, exercises)
        found = leaks.scan(tree, leaks.solution_lines(sources.solutions), summary.hidden_names)
        if found:
            raise BuildFailed("attnkit release: the release would give away what students must not see:\n  "
                              + "\n  ".join(str(leak) for leak in found[:20]))
        zipped = staging / "release.zip"
        write_zip(tree, zipped, top=out.name)
        _install(tree, out)
        zipped.replace(archive)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Release(out, archive, len(leaks.files(out)), summary.public_checks, summary.public_points,
                   len(summary.hidden_names), summary.recorded_calls, summary.recorded_bytes, summary.unverified)


def _install(tree: Path, out: Path) -> None:
    """Put ``tree`` at ``out``: a rename, with any old ``out`` moved aside first and removed after."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{tree.parent.name}")
        out.rename(old)
    tree.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
