"""The trusted side's end of the zygote: one clean interpreter per grading worker that forks the children.

:class:`Zygote` starts ``zygote.py`` once (:func:`launch`); :meth:`Zygote.implementation` has it fork a child for
one exercise of one submission and returns the ``impl`` the checks use (:mod:`transport` talks to that child). A child
that is done with is killed and released: the zygote reaps it once it has exited, and the workspace waits for
every released child before its files are removed. Every child runs under the zygote's :class:`~.limits.Limits`.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
from pathlib import Path

from . import shared
from .callbacks import Siblings
from .launch import Launched, launch
from .limits import PRINT_LIMIT, Limits
from .proxy import Implementation
from .scrub import machine_paths
from .workspace import Workspace, bytecode_folder


class Zygote:
    """One clean interpreter with numpy loaded, forking children on request."""

    def __init__(self, limits: Limits | None = None, stdlib: str | None = None, launched: Launched | None = None):
        """``stdlib``: a copy of the standard library children may read (see :mod:`preflight`); by default
        one is made when user ``nobody`` cannot read the installed one. ``launched``: a zygote already
        started by :func:`launch` (then ``stdlib`` is the one it was given)."""
        self.limits = Limits() if limits is None else limits
        self.cpu: int | None = None  # children run on this CPU when set (see grader.sandbox.host.affinity)
        launched = launched or launch(stdlib)
        self.process, self.control = launched.process, launched.control
        self.site, self.numpy_roots = launched.site, launched.numpy_roots
        self.user, self.stdlib = launched.user, launched.stdlib
        # the machine's paths a child can see, named instead in what it reports (scrub.py)
        self.paths = {**machine_paths(), self.site: "<site-packages>", **dict.fromkeys(self.numpy_roots, "<numpy>"),
                      **({self.stdlib: "<python>"} if self.stdlib else {})}
        self._asking = threading.Lock()  # one question at a time on the control socket (``check`` runs lanes)

    def _ask(self, request: dict, fds: list[int] | tuple[int, ...] = ()) -> dict:
        with self._asking:
            socket.send_fds(self.control, [json.dumps(request).encode()], list(fds))
            answer = self.control.recv(65536)
        if not answer:
            raise RuntimeError("the sandbox zygote died; see ATTNKIT_DEBUG_SANDBOX=1 for its output")
        return json.loads(answer)

    def spawn(self, submission: Path, scratch: Path, output: Path, exercise: str,
              stand_ins: dict | None = None, own_stand_ins: dict | None = None, region: shared.Region | None = None,
              populate: bool = False) -> tuple[int, socket.socket]:
        """A child for ``exercise``; ``region``: the memory its calls' array arguments are written into;
        ``populate``: its mapped files' pages mapped in first (a child for a memory check)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        output_fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        request = {
            "op": "spawn", "submission": str(submission), "scratch": str(scratch), "exercise": exercise,
            "bytecode": str(bytecode_folder(scratch)),
            "read_roots": [str(submission), str(scratch)] + self.numpy_roots + ([self.stdlib] if self.stdlib else []),
            "limits": {"memory_bytes": self.limits.memory_bytes, "output_bytes": self.limits.output_bytes,
                       "print_bytes": PRINT_LIMIT},
            "uid": self.user[0] if self.user else None, "gid": self.user[1] if self.user else None,
            "cpu": self.cpu, "stand_ins": stand_ins or {}, "own_stand_ins": own_stand_ins or {},
            "shared_bytes": region.size if region else 0, "populate": populate,
        }
        try:
            pid = int(self._ask(request, [theirs.fileno(), output_fd] + ([region.fd] if region else []))["pid"])
        finally:
            theirs.close()
            os.close(output_fd)
        return pid, ours

    def reap(self, pid: int) -> dict:
        return self._ask({"op": "reap", "pid": pid})

    def release(self, pid: int) -> None:
        """Hand a child that is done with to the zygote, which kills its session and reaps it once it has exited
        (nobody waits for its status). The kill is the zygote's: on the CPU the child last ran on, a SIGKILL runs the
        child's exit before the sender's system call returns (0.26 ms, against 0.04 ms from another CPU), and there
        the grader's threads would wait for the one holding the interpreter's lock."""
        with self._asking:
            socket.send_fds(self.control, [json.dumps({"op": "release", "pid": pid}).encode()], [])

    def settle(self) -> None:
        """Return once every released child has been reaped; nothing when the zygote is gone (its children
        were killed with it)."""
        try:
            self._ask({"op": "settle"})
        except (OSError, RuntimeError, ValueError):
            pass

    def implementation(self, workspace: "Workspace", exercise: str, module: str | None = None,
                       siblings: Siblings | None = None) -> Implementation:
        """A fresh child for ``exercise`` of the submission in ``workspace``; imports its module first.
        With ``siblings``, the functions of the other exercises' modules are answered by the reference."""
        from .transport import ChildTransport  # (transport.py builds on this module)

        return Implementation(ChildTransport(self, workspace, exercise, module or exercise, siblings))

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                socket.send_fds(self.control, [b'{"op": "exit"}'], [])
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.control.close()

    def __enter__(self) -> "Zygote":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
