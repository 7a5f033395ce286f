"""Deterministic zips: sorted entries, fixed timestamps, 644/755 permissions.

The same files always give the same bytes, so a rebuilt release, autograder or hand-in can be
compared with the uploaded one. Used by ``attnkit release``, ``attnkit gradescope build`` and
``attnkit pack`` (which ships in the student release, hence a top-level module).
"""
from __future__ import annotations

import io
import os
import stat
import zipfile
from pathlib import Path

EPOCH = (1980, 1, 1, 0, 0, 0)


def zip_bytes(files: dict[str, Path]) -> bytes:
    """A zip of ``files`` (name in the zip -> file on disk), entries sorted by name."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            executable = os.stat(files[name]).st_mode & stat.S_IXUSR
            info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zipped.writestr(info, Path(files[name]).read_bytes())
    return buffer.getvalue()


def write_zip(folder: Path, target: Path, top: str = "") -> int:
    """Zip every file under ``folder`` into ``target`` (under the folder name ``top`` if given); returns the count."""
    folder = Path(folder)
    paths = sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts)
    names = {(f"{top}/" if top else "") + path.relative_to(folder).as_posix(): path for path in paths}
    Path(target).write_bytes(zip_bytes(names))
    return len(paths)
