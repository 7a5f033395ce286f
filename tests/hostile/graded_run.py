"""``python graded_run.py REPORT.json RUN_ROOT -- <attnkit grade arguments>``: one grading run, then a process census.

This process makes itself a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``) before it runs
``attnkit grade`` in-process, so every process the run starts, including one that double-forks
and calls ``setsid`` to leave its session, stays its descendant. When the run has returned, the
processes still alive below it (bar multiprocessing's fork server and resource tracker), and any process anywhere
whose working directory or command line lies under RUN_ROOT, are strays: they are written to
REPORT.json (pid, cmdline, uid, session) and then killed.
"""
from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
SETTLE_SECONDS = 3.0  # processes that are exiting right as the run returns get this long to go


def stat_fields(pid: int) -> tuple[int, str, int]:
    """(ppid, state, session) of ``pid``."""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        text = handle.read().decode("utf-8", "replace")
    rest = text[text.rindex(")") + 2:].split()
    return int(rest[1]), rest[0], int(rest[3])


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def describe(pid: int) -> dict | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            cmdline = handle.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        ppid, state, session = stat_fields(pid)
        uid = os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None
    return {"pid": pid, "ppid": ppid, "state": state, "session": session, "uid": uid, "cmdline": cmdline}


def descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid in all_pids():
        try:
            ppid, state, _ = stat_fields(pid)
        except OSError:
            continue
        if state != "Z":
            children.setdefault(ppid, []).append(pid)
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def under_run_root(run_root: str) -> set[int]:
    """Processes anywhere whose cwd or command line is below ``run_root`` (a second net besides ancestry)."""
    found = set()
    for pid in all_pids():
        if pid == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            cwd = ""
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().decode("utf-8", "replace")
        except OSError:
            cmdline = ""
        if cwd.startswith(run_root) or run_root in cmdline:
            found.add(pid)
    return found


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def strays(run_root: str, keep: set[int]) -> set[int]:
    reap()
    return (descendants(os.getpid()) | under_run_root(run_root)) - keep


def main(argv: list[str]) -> int:
    report, run_root, grade_args = argv[0], os.path.realpath(argv[1]), argv[3:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    from attnkit.grade.__main__ import cli

    status = cli(grade_args)
    from multiprocessing import forkserver, resource_tracker  # imported by now (importing first changes atexit order)

    # multiprocessing's own helpers of this process, which stop when it exits
    helpers = (getattr(forkserver._forkserver, "_forkserver_pid", None),
               getattr(resource_tracker._resource_tracker, "_pid", None))
    keep = {pid for pid in helpers if pid}
    deadline = time.monotonic() + SETTLE_SECONDS
    left = strays(run_root, keep)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = strays(run_root, keep)
    found = [info for info in map(describe, sorted(left)) if info is not None]
    for info in found:
        try:
            os.kill(info["pid"], signal.SIGKILL)
        except OSError:
            pass
    reap()
    with open(report, "w", encoding="utf-8") as handle:
        json.dump({"status": status, "strays": found}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
