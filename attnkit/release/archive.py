"""A deterministic zip of a folder: sorted entries, fixed timestamps, 644/755 permissions.

The same folder always gives the same bytes, so a rebuilt release or autograder can be
compared with the uploaded one. Used by ``attnkit release`` and ``attnkit gradescope build``.
"""
from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

EPOCH = (1980, 1, 1, 0, 0, 0)


def write_zip(folder: Path, target: Path, top: str = "") -> int:
    """Zip every file under ``folder`` into ``target`` (under the folder name ``top`` if given); returns the count."""
    folder = Path(folder)
    paths = sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for path in paths:
            name = path.relative_to(folder).as_posix()
            info = zipfile.ZipInfo(f"{top}/{name}" if top else name, date_time=EPOCH)
            executable = os.stat(path).st_mode & stat.S_IXUSR
            info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zipped.writestr(info, path.read_bytes())
    return len(paths)
