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

import os
import pwd
import stat
import sys
from pathlib import Path

# What only finding or making a copy needs (hashlib, shutil, tempfile, grader.files) is imported where it is used:
# attnkit check starts the zygote through this module before anything else, and a readable standard library
# (the common case) needs none of it; an existing copy needs no grader.files (and its dataclasses).

SKIPPED = {"site-packages", "dist-packages", "__pycache__", "test", "tests", "idlelib", "turtledemo", "ensurepip",
           "lib2to3", "tkinter"}
COPY_NAME = "stdlib"
COMPLETE = "complete"  # written last in a shared copy
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


class MachineNotReady(Exception):
    """What children need from this machine and cannot get; the front end words it (nothing is graded).

    ``user``: the unprivileged user children run as; ``folder``: the folder at fault; ``reason``: the system's
    word (for :class:`StdlibUnreadable`)."""

    def __init__(self, user: str, folder: str, reason: str = ""):
        super().__init__(f"{user}: {folder} {reason}".strip())
        self.user, self.folder, self.reason = user, folder, reason


class TempUnreachable(MachineNotReady):
    """A folder above the run's temporary folder may not be passed through by others (``folder``)."""


class StdlibUnreadable(MachineNotReady):
    """The installed standard library (``folder``) is not readable by others and no copy could be made."""


def prepare(root: Path) -> str | None:
    """Check (and fix) what children need below ``root``, a run's temporary folder: that their user may pass
    through every folder above it, and a standard library they may read (a copy under ``root`` when the installed
    one is not). Returns that copy (None: the installed one), the same on every call; :class:`MachineNotReady`."""
    user = unprivileged_user()
    blocking = blocking_folder(root) if user is not None else None
    if blocking is not None:
        raise TempUnreachable(user_name(user), str(blocking))
    try:
        return readable_stdlib(str(root))
    except OSError as error:
        raise StdlibUnreadable(user_name(user), stdlib_dir(), str(error.strerror or error)) from None


def user_name(user: tuple[int, int] | None) -> str:
    """The children's user's name (the grader's own when they keep it)."""
    return pwd.getpwuid(os.getuid() if user is None else user[0]).pw_name


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
    (or children keep the grader's user), else a read-only copy: made once per process under ``base``
    (``attnkit grade``: its run folder, removed with it), or without ``base`` shared through the temp
    dir by every process of this user and Python (:func:`shared_copy`)."""
    if unprivileged_user() is None or others_can_read(stdlib_dir()):
        return None
    if base is None:
        return shared_copy()
    if base not in _copies:
        import tempfile

        folder = tempfile.mkdtemp(prefix="attnkit-stdlib-", dir=base)
        _copies[base] = copy_stdlib(stdlib_dir(), os.path.join(folder, COPY_NAME))
    return _copies[base]


def shared_copy() -> str:
    """``<tmp>/attnkit-stdlib-<uid>-<digest of this Python>/stdlib``, made atomically (a rename) and used
    only when it is a folder of ours that nobody else may write to; a private copy otherwise."""
    import hashlib
    import tempfile

    source = stdlib_dir()
    digest = hashlib.sha256(f"{source}\0{sys.version}\0{os.stat(source).st_mtime_ns}".encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"attnkit-stdlib-{os.geteuid()}-{digest}"
    for _ in range(2):
        if _trusted(folder):
            return str(folder / COPY_NAME)
        staging = tempfile.mkdtemp(prefix=f"{folder.name}.new-", dir=folder.parent)
        copy_stdlib(source, os.path.join(staging, COPY_NAME))
        (Path(staging) / COMPLETE).touch(mode=0o644)
        try:
            os.rename(staging, folder)
        except OSError:  # another process made it first (or something else sits there)
            from ... import files

            files.remove(staging)
    import atexit

    from ... import files

    folder = Path(tempfile.mkdtemp(prefix="attnkit-stdlib-"))  # something untrusted holds the name
    atexit.register(files.remove, folder)
    return copy_stdlib(source, str(folder / COPY_NAME))


def _trusted(folder: Path) -> bool:
    try:
        info = folder.lstat()
        return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022
                and (folder / COMPLETE).is_file())
    except OSError:
        return False


def copy_stdlib(source: str, target: str) -> str:
    """Copy the standard library at ``source`` to ``target``: folders 0755, owned by us; each file a hard link to
    the installed one when others may read that file (only a folder above it kept them out: the link lets them in,
    and changes nothing of the file, which stays its owner's to write), a copy of it (0644) otherwise or where
    no link can be made (another file system)."""
    import shutil

    def ignore(folder, names):
        return [n for n in names if n in SKIPPED or (folder == source and n.startswith("config-"))]

    copied: list[str] = []

    def link_or_copy(src: str, dst: str) -> str:
        try:
            if os.stat(src).st_mode & stat.S_IROTH:
                os.link(src, dst)
                return dst
        except OSError:
            pass
        copied.append(shutil.copyfile(src, dst))
        return dst

    shutil.copytree(source, target, ignore=ignore, copy_function=link_or_copy, symlinks=False)
    for base, _dirs, _names in os.walk(target):
        os.chmod(base, 0o755)
    for path in copied:
        os.chmod(path, 0o644)
    os.chmod(os.path.dirname(target), 0o755)
    return target
