"""What the sandbox needs from the machine before any child runs, checked (and fixed) up front.

When the grader runs as root, children drop to ``nobody`` (:func:`unprivileged_user`). That user
must be able to pass through every folder above the temp dir (:func:`blocking_folder`), and to
read the standard library: a Python installed in root's private home (mode 0700, as pyenv does
under ``/root``) is out of its reach, so a child could import only what the zygote preloaded and a
correct submission importing ``copy`` or ``dataclasses`` would score 0. :func:`readable_stdlib`
then makes a read-only copy of the standard library (root-owned, without site-packages and the
test suites) that children import from instead.
"""
from __future__ import annotations

import atexit
import os
import pwd
import shutil
import stat
import tempfile
from pathlib import Path

from . import tree

SKIPPED = {"site-packages", "dist-packages", "__pycache__", "test", "tests", "idlelib", "turtledemo", "ensurepip",
           "lib2to3", "tkinter"}
COPY_NAME = "stdlib"
_copies: dict[str, str] = {}


def unprivileged_user() -> tuple[int, int] | None:
    """(uid, gid) of ``nobody`` when the grader runs as root (children drop to it), else None."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


def user_name(user: tuple[int, int]) -> str:
    return pwd.getpwuid(user[0]).pw_name


def blocking_folder(path: Path) -> Path | None:
    """The first folder above ``path`` that others may not pass through (children as ``nobody`` could
    not reach a workspace inside), or None."""
    for folder in Path(path).resolve().parents:
        try:
            mode = folder.stat().st_mode
        except OSError:
            continue
        if not mode & stat.S_IXOTH:
            return folder
    return None


def stdlib_dir() -> str:
    return os.path.realpath(os.path.dirname(os.__file__))


def others_can_read(folder: str) -> bool:
    """Whether a user who is neither the owner nor in the group can import from ``folder``."""
    if blocking_folder(Path(folder, "x")) is not None:
        return False
    try:
        return all(os.stat(p).st_mode & stat.S_IROTH for p in (folder, os.path.join(folder, "os.py")))
    except OSError:
        return False


def readable_stdlib(base: str | None = None) -> str | None:
    """A standard library children as ``nobody`` can import from: None when the installed one is readable
    (or children keep the grader's user), else a read-only copy made once per process under ``base``
    (default: the temp dir; removed at exit when this function made its folder)."""
    if unprivileged_user() is None or others_can_read(stdlib_dir()):
        return None
    key = str(base)
    if key not in _copies:
        folder = tempfile.mkdtemp(prefix="attnkit-stdlib-", dir=base)
        if base is None:
            atexit.register(tree.remove, folder)
        _copies[key] = copy_stdlib(stdlib_dir(), os.path.join(folder, COPY_NAME))
    return _copies[key]


def copy_stdlib(source: str, target: str) -> str:
    """Copy the standard library at ``source`` to ``target``: folders 0755, files 0644, owned by us."""
    def ignore(folder, names):
        return [n for n in names if n in SKIPPED or (folder == source and n.startswith("config-"))]

    shutil.copytree(source, target, ignore=ignore, copy_function=shutil.copyfile, symlinks=False)
    for base, _dirs, files in os.walk(target):
        os.chmod(base, 0o755)
        for name in files:
            os.chmod(os.path.join(base, name), 0o644)
    os.chmod(os.path.dirname(target), 0o755)
    return target
