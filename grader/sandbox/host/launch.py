"""Starting the zygote's interpreter, without importing numpy here.

:class:`grader.sandbox.host.spawner.Zygote` talks to the zygote; :func:`launch` only starts it. It is a
module of its own so that ``attnkit check`` can start the zygote first thing and import numpy,
the grader and the checks while the zygote loads numpy on the other core.
"""
from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from . import preflight
from .affinity import SINGLE_THREADED

ZYGOTE = Path(__file__).resolve().parents[1] / "inside" / "zygote.py"


def numpy_paths() -> tuple[str, list[str]]:
    """(site directory holding numpy, [numpy's package dir, numpy.libs if present])."""
    spec = importlib.util.find_spec("numpy")
    if spec is None or spec.origin is None:
        raise ImportError("numpy is not installed")
    package = os.path.dirname(spec.origin)
    site = os.path.dirname(package)
    roots = [package] + [os.path.join(site, d) for d in os.listdir(site) if d.startswith("numpy.libs")]
    return site, roots


class Launched:
    """A started zygote: its process and our end of its control socket, and what its children may read (a plain
    class: importing ``dataclasses``, or making a named tuple, would delay the start of the zygote by milliseconds)."""

    __slots__ = ("process", "control", "site", "numpy_roots", "user", "stdlib")

    def __init__(self, process: subprocess.Popen, control: socket.socket, site: str, numpy_roots: list[str],
                 user: tuple[int, int] | None, stdlib: str | None):
        self.process, self.control, self.site, self.numpy_roots = process, control, site, numpy_roots
        self.user, self.stdlib = user, stdlib

    def stop(self) -> None:
        """End a zygote nobody used (the command stopped before checking anything): killed, reaped, socket closed."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:  # exited between the poll and the kill
                pass
        self.process.wait()
        self.control.close()


def launch(stdlib: str | None = None) -> Launched:
    """Start ``zygote.py`` in a clean interpreter. ``stdlib``: a copy of the standard library children may
    read (see :mod:`preflight`); by default one is made when user ``nobody`` cannot read the installed one."""
    site, numpy_roots = numpy_paths()
    stdlib = stdlib or preflight.readable_stdlib()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **SINGLE_THREADED, "PYTHONHASHSEED": "0"}
    process = subprocess.Popen(
        [sys.executable, "-I", "-S", "-B", str(ZYGOTE), str(theirs.fileno()), site, stdlib or ""],
        pass_fds=(theirs.fileno(),), env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=None if os.environ.get("ATTNKIT_DEBUG_SANDBOX") else subprocess.DEVNULL,
        cwd="/", start_new_session=True)
    theirs.close()
    return Launched(process, ours, site, numpy_roots, preflight.unprivileged_user(), stdlib)
