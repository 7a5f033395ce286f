"""Folder trees that student code (or a student's archive) shaped: removed and walked without recursion.

A child may nest folders thousands deep in its scratch dir, and a hand-in may be one. On Python 3.11
``shutil.rmtree`` and ``os.walk`` recurse once per level, and ``rmtree(ignore_errors=True)`` does not
catch the ``RecursionError``: one such tree would crash the run and, left in the temp dir, every later
run. Everything here is iterative, works on directory descriptors (so paths longer than ``PATH_MAX``
do not matter), never follows a symbolic link, is bounded by a count of entries, and never raises
(:func:`remove`) or raises only :class:`TreeTooLarge` (:func:`scan`). :func:`read_regular` reads one file of
such a tree without following a link or blocking on a FIFO.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

REMOVE_LIMIT = 2_000_000   # entries one removal visits at most (a child makes far fewer in its time)
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class TreeTooLarge(Exception):
    """A folder holds more entries than allowed; the message says how many."""


def _open_dir(name: str, dir_fd: int | None) -> int:
    try:
        return os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:  # a folder the child made unreadable (mode 000): it is ours to open
        os.chmod(name, 0o700, dir_fd=dir_fd)
        return os.open(name, DIR_FLAGS, dir_fd=dir_fd)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _empty(fd: int, budget: list[int]) -> list[str]:
    """Unlink every non-folder entry of the open folder ``fd``; returns its subfolders' names."""
    folders = []
    with os.scandir(fd) as entries:
        for entry in entries:
            budget[0] -= 1
            if budget[0] < 0:
                raise TreeTooLarge("more entries than a removal visits")
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.name)
            else:
                try:
                    os.unlink(entry.name, dir_fd=fd)
                except FileNotFoundError:
                    pass
    return folders


def _remove_contents(top: int, budget: list[int]) -> None:
    """Empty the open folder ``top`` (left open); at most two more descriptors are open at any time."""
    trail = []  # per level above the current one: (its identity, its pending subfolders, our name in it)
    fd, pending = top, _empty(top, budget)
    while True:
        if pending:
            name = pending.pop()
            child = _open_dir(name, fd)
            trail.append((_identity(fd), pending, name))
            if fd != top:
                os.close(fd)
            fd, pending = child, _empty(child, budget)
            continue
        if not trail:
            return
        parent_id, pending, name = trail.pop()
        if trail:  # climb through "..", checked to be the folder we came from
            parent = os.open("..", DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            if _identity(fd) != parent_id:
                os.close(fd)
                raise OSError(f"a folder moved while it was being removed ({name})")
        else:
            os.close(fd)
            fd = top
        os.rmdir(name, dir_fd=fd)


def remove(path) -> bool:
    """Remove ``path`` (a file, a link or a whole tree); True when it is gone. Never raises."""
    path = os.fspath(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False
    try:
        if not stat.S_ISDIR(info.st_mode):
            os.unlink(path)
            return True
        fd = _open_dir(path, None)
        try:
            _remove_contents(fd, [REMOVE_LIMIT])
        finally:
            os.close(fd)
        os.rmdir(path)
        return True
    except Exception:  # noqa: BLE001 - removal is best effort: a failure must never stop the run
        try:
            return not os.path.lexists(path)
        except Exception:  # noqa: BLE001
            return False


@dataclass(frozen=True)
class Found:
    """One entry of a scanned folder: its relative posix name, what it is, its size, its depth (1: top level)."""

    name: str
    kind: str   # "file" | "folder" | "symlink" | "fifo" | "socket" | "device" | "other"
    size: int
    depth: int


def kind_of(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "other"


def scan(folder, max_depth: int, max_entries: int, skip=lambda name: False) -> tuple[list[Found], list[str]]:
    """Every entry below ``folder`` down to ``max_depth`` levels, breadth first, sorted; nothing is opened
    but folders, no link is followed. Returns (entries, folders not entered because they are too deep).

    Raises :class:`TreeTooLarge` past ``max_entries`` entries, before reading any more.
    """
    found: list[Found] = []
    too_deep: list[str] = []
    queue = [("", 1)]
    while queue:
        relative, depth = queue.pop()
        with os.scandir(os.path.join(folder, relative) if relative else folder) as entries:
            for entry in entries:
                if skip(entry.name):
                    continue
                if len(found) >= max_entries:
                    raise TreeTooLarge(f"more than {max_entries} files and folders")
                name = f"{relative}/{entry.name}" if relative else entry.name
                info = entry.stat(follow_symlinks=False)
                kind = kind_of(info.st_mode)
                found.append(Found(name, kind, info.st_size if kind == "file" else 0, depth))
                if kind == "folder":
                    if depth < max_depth:
                        queue.append((name, depth + 1))
                    else:
                        too_deep.append(name)
    return sorted(found, key=lambda f: f.name), sorted(too_deep)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes; ``OSError`` otherwise.

    Never follows a link, never blocks on a FIFO or device, never reads more than ``limit`` + 1 bytes
    (a file that grew since it was listed is refused, not truncated)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{Path(path).name} is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{Path(path).name} is larger than {limit >> 20} MiB")
    return data
