"""The grading process's private temporary folder, and removal of the ones killed runs left behind.

Everything ``attnkit grade`` puts in the temp dir (each worker's folder with the sandbox
workspaces, multiprocessing's forkserver socket) goes under one folder per grading process,
``<tmp>/attnkit-run-<pid>-XXXXXXXX``, removed when that process exits. The folder holds ``owner``,
a file the process keeps locked (``flock``) for as long as it lives; the kernel releases the lock
however the process dies. A run stopped with SIGKILL (or a power cut) cannot remove its folder,
so every run starts by removing the folders whose ``owner`` lock is free, or, killed before it
locked ``owner`` (a few microseconds), whose process is gone: see :func:`sweep`.
"""
from __future__ import annotations

import fcntl
import os
import stat
import tempfile
import time
from multiprocessing import util
from pathlib import Path

from grader import files

PREFIX = "attnkit-run-"
OWNER = "owner"
# a folder without ``owner`` and without a pid in its name: left alone this long after it was made
CREATING_GRACE_SECONDS = 60.0

REMOVAL_PRIORITY = -200
_root: Path | None = None


# multiprocessing's forkserver listens on <folder>/pymp-XXXXXXXX/listener-XXXXXXXX, a Unix socket address of at most
# 107 bytes: a folder whose path leaves less room gets a short one of its own, under SHORT_BASE
UNIX_PATH_MAX, SOCKET_PATH_ROOM, SHORT_BASE = 107, 40, "/tmp"
_sockets: Path | None = None


def root() -> Path:
    """This process's private temporary folder (created, locked and registered for removal on first use)."""
    global _root
    if _root is not None and _root.is_dir():
        return _root
    _root = _make(None)
    return _root


def socket_folder() -> Path:
    """Where multiprocessing's forkserver keeps its socket: :func:`root` when its path leaves room for the socket's
    address, else a private folder of the same kind (locked, removed at exit, swept after a kill) under
    :data:`SHORT_BASE`."""
    global _sockets
    if len(os.fsencode(str(root()))) + SOCKET_PATH_ROOM <= UNIX_PATH_MAX:
        return root()
    if _sockets is None or not _sockets.is_dir():
        _sockets = _make(SHORT_BASE)
    return _sockets


def _make(base: str | None) -> Path:
    """A private folder under ``base`` (the temp dir when None), its ``owner`` locked, removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=base))
    os.chmod(folder, 0o711)  # sandboxed children (user nobody when we are root) pass through to their workspace
    pending = folder / f"{OWNER}.new"
    fd = os.open(pending, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.rename(pending, folder / OWNER)  # only a locked owner file ever carries the name a sweeper tests
    # at exit, after multiprocessing's own clean-up (its forkserver socket folder is in here; priority -100)
    util.Finalize(None, _remove, args=(folder, fd), exitpriority=REMOVAL_PRIORITY)
    return folder


def _remove(folder: Path, fd: int) -> None:
    files.remove(folder)  # never raises, however deep a child nested its folders
    try:
        os.close(fd)
    except OSError:
        pass


def abandoned(folder: Path) -> bool:
    """True when no living process owns ``folder`` (its ``owner`` lock is free)."""
    try:
        fd = os.open(folder / OWNER, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:  # being made, or its maker was killed before it locked ``owner``
        pid = folder.name[len(PREFIX):].split("-")[0]
        if pid.isdigit():
            return not _alive(int(pid))
        try:
            return time.time() - folder.stat().st_mtime > CREATING_GRACE_SECONDS
        except OSError:
            return False
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held: a living run
        return False
    finally:
        os.close(fd)  # releases our probe lock, if we got it
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but not ours to signal
        return True
    return True


def sweep(base: Path | None = None) -> int:
    """Remove the temporary folders of grading runs that were killed; returns how many.

    Only folders owned by this user, never this process's own, never one whose owner lives.
    Never raises: a folder that cannot be removed is left for the next run.
    """
    base = Path(base or tempfile.gettempdir())
    removed = 0
    try:
        candidates = sorted(base.glob(f"{PREFIX}*"))
    except OSError:
        return 0
    for folder in candidates:
        try:
            info = folder.lstat()
            if folder in (_root, _sockets) or not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            if abandoned(folder):
                removed += files.remove(folder)
        except Exception:  # noqa: BLE001 - one stuck folder never stops the run
            continue
    return removed
