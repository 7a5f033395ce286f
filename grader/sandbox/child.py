"""The trusted side of the sandbox: a zygote per grading worker, a child per exercise.

:class:`Zygote` starts the clean interpreter of ``zygote.py`` once; :meth:`Zygote.implementation`
forks a child for one exercise of one submission and returns the ``impl`` the checks use.
Every request has a wall-clock timeout; on expiry the child's whole session is killed with
SIGKILL. Nothing from the child is unpickled, evaluated or read from its stdout.
"""
from __future__ import annotations

import importlib.util
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import errors, wire
from .proxy import Implementation, sibling_note, student_error

HERE = Path(__file__).resolve().parent
DEFAULT_TIMEOUT = 10.0
DEFAULT_MEMORY = 2 << 30       # RLIMIT_AS of a child: 2 GiB
OUTPUT_LIMIT = 1 << 20         # what a child may write (stdout, stderr, files): 1 MiB
SHOWN_OUTPUT = 2000            # characters of a crashed child's output quoted back
MAX_TIMEOUTS = 2               # after this many timeouts in one exercise, its other checks are not run
SIGNAL_NAMES = {signal.SIGSEGV: "a segmentation fault", signal.SIGKILL: "SIGKILL (out of memory?)",
                signal.SIGABRT: "an abort", signal.SIGBUS: "a bus error", signal.SIGFPE: "a floating-point exception"}


@dataclass(frozen=True)
class Limits:
    timeout: float = DEFAULT_TIMEOUT
    memory_bytes: int = DEFAULT_MEMORY
    output_bytes: int = OUTPUT_LIMIT


def numpy_paths() -> tuple[str, list[str]]:
    """(site directory holding numpy, [numpy's package dir, numpy.libs if present])."""
    spec = importlib.util.find_spec("numpy")
    package = os.path.dirname(spec.origin)
    site = os.path.dirname(package)
    roots = [package] + [os.path.join(site, d) for d in os.listdir(site) if d.startswith("numpy.libs") or d == "numpy.libs"]
    return site, roots


def unprivileged_user() -> tuple[int, int] | None:
    """(uid, gid) of ``nobody`` when the grader runs as root (children drop to it), else None."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


class Zygote:
    """One clean interpreter with numpy loaded, forking children on request."""

    def __init__(self, limits: Limits = Limits()):
        self.limits = limits
        self.cpu: int | None = None  # children run on this CPU when set (see grader.sandbox.affinity)
        self.site, self.numpy_roots = numpy_paths()
        self.user = unprivileged_user()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENBLAS_NUM_THREADS": "1",
               "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-B", str(HERE / "zygote.py"), str(theirs.fileno()), self.site],
            pass_fds=(theirs.fileno(),), env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("ATTNKIT_DEBUG_SANDBOX") else subprocess.DEVNULL,
            cwd="/", start_new_session=True)
        theirs.close()
        self.control = ours

    def _ask(self, request: dict, fds: list[int] = ()) -> dict:
        socket.send_fds(self.control, [json.dumps(request).encode()], list(fds))
        answer = self.control.recv(65536)
        if not answer:
            raise RuntimeError("the sandbox zygote died; see ATTNKIT_DEBUG_SANDBOX=1 for its output")
        return json.loads(answer)

    def spawn(self, submission: Path, scratch: Path, output: Path, exercise: str) -> tuple[int, socket.socket]:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        output_fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        request = {
            "op": "spawn", "submission": str(submission), "scratch": str(scratch), "exercise": exercise,
            "read_roots": [str(submission), str(scratch)] + self.numpy_roots,
            "limits": {"memory_bytes": self.limits.memory_bytes, "output_bytes": self.limits.output_bytes},
            "uid": self.user[0] if self.user else None, "gid": self.user[1] if self.user else None,
            "cpu": self.cpu,
        }
        try:
            pid = int(self._ask(request, [theirs.fileno(), output_fd])["pid"])
        finally:
            theirs.close()
            os.close(output_fd)
        return pid, ours

    def reap(self, pid: int) -> dict:
        return self._ask({"op": "reap", "pid": pid})

    def implementation(self, workspace: "Workspace", exercise: str, module: str | None = None) -> Implementation:
        """A fresh child for ``exercise`` of the submission in ``workspace``; imports its module first."""
        return Implementation(ChildTransport(self, workspace, exercise, module or exercise))

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


class Workspace:
    """A private temporary copy of one submission's modules, and a scratch dir for its children."""

    def __init__(self, modules_dir: Path, user: tuple[int, int] | None = None):
        self.root = Path(tempfile.mkdtemp(prefix="attnkit-"))
        self.submission = self.root / "submission"
        self.scratch = self.root / "scratch"
        self.outputs = 0
        self.timeouts: dict[str, int] = {}  # per exercise, over all its children (see MAX_TIMEOUTS)
        try:
            self.submission.mkdir()
            self.scratch.mkdir()
            for path in sorted(Path(modules_dir).iterdir()):
                if path.is_file() and not path.is_symlink() and path.suffix == ".py":
                    shutil.copyfile(path, self.submission / path.name)
            os.chmod(self.root, 0o755)
            os.chmod(self.submission, 0o755)
            if user is not None:  # children run as nobody: they may read the copy and write only the scratch dir
                os.chown(self.scratch, *user)
        except BaseException:
            self.close()
            raise

    def output_file(self, exercise: str) -> Path:
        self.outputs += 1
        return self.root / f"output-{exercise}-{self.outputs}.txt"

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass(frozen=True)
class KernelMemory:
    """The kernel's view of a child around one ``measure`` call (bytes), which its code cannot fake.

    ``held_before``: resident memory above what the child had before any student code ran;
    ``growth``: how far its peak resident memory rose during the call.
    """

    held_before: int
    growth: int


def _status_kib(pid: int, field: str) -> int | None:
    """A ``kB`` field of /proc/PID/status (VmRSS, VmHWM), or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


class ChildTransport:
    """Requests to one child over its socket, with a timeout per request."""

    def __init__(self, zygote: Zygote, workspace: Workspace, exercise: str, module: str):
        self.zygote, self.workspace, self.exercise, self.module = zygote, workspace, exercise, module
        self.timeout = zygote.limits.timeout
        self.output = workspace.output_file(exercise)
        self.dead = False           # the child died after its module imported: the runner starts a new one
        self.broken: errors.StudentError | None = None  # the module never imported: every request fails so
        self.pid, self.sock = None, None
        self.baseline_kib: int | None = None
        self.kernel_memory: KernelMemory | None = None  # of the last ``measure`` call, read from /proc
        spent = workspace.timeouts.get(exercise, 0)
        if spent >= MAX_TIMEOUTS:  # no new child for an exercise that already timed out this often
            self.broken = errors.StudentTimeout(f"not run: your {module}.py timed out {spent} times",
                                                call=f"import {module}", exercise=exercise)
            return
        self.pid, self.sock = zygote.spawn(workspace.submission, workspace.scratch, self.output, exercise)
        self.baseline_kib = _status_kib(self.pid, "VmRSS")  # before any student code ran in it
        try:
            self.request("import", {"module": module}, call=f"import {module}")
        except errors.StudentError as failure:
            self.broken = failure if isinstance(failure, errors.StudentImportFailed) else errors.StudentImportFailed(
                f"your {module}.py could not be imported: {failure.message}", call=failure.call, exercise=exercise)

    def request(self, op: str, target: dict, args: tuple = (), kwargs: dict | None = None,
                name: str = "", call: str = "") -> Any:
        if self.broken is not None:
            raise self.broken
        if self.dead:
            raise errors.StudentCrashed(f"{call}: your process had already stopped", call=call, exercise=self.exercise)
        arrays: list = []
        header = {"op": op, "target": target, "name": name,
                  "args": wire.encode(tuple(args), arrays), "kwargs": wire.encode(list((kwargs or {}).items()), arrays)}
        self.sock.settimeout(self.timeout)
        try:
            rss_before = self._reset_peak() if op == "measure" else None
            wire.send(self.sock, header, arrays)
            answer, values = wire.recv(self.sock)
            if rss_before is not None:
                self._note_peak(rss_before)
        except (socket.timeout, TimeoutError):
            self.kill()
            spent = self.workspace.timeouts[self.exercise] = self.workspace.timeouts.get(self.exercise, 0) + 1
            if spent >= MAX_TIMEOUTS:
                self.broken = errors.StudentTimeout(
                    f"not run: your {self.module}.py timed out {spent} times", call=call, exercise=self.exercise)
            raise errors.StudentTimeout(f"{call}: your code was stopped after {self.timeout:g} s", call=call,
                                        exercise=self.exercise) from None
        except (wire.WireError, OSError) as failure:
            how = self.kill()
            printed = self.printed()
            detail = f"\n  your code printed:\n{printed}" if printed else ""
            if isinstance(failure, wire.WireError) and "closed" not in str(failure):
                raise errors.StudentBadValue(f"{call}: the value your code returned could not be read ({failure})",
                                             call=call, exercise=self.exercise) from None
            raise errors.StudentCrashed(f"your process {how} during {call}{detail}", call=call,
                                        exercise=self.exercise) from None
        if answer.get("ok") is True:
            try:
                return wire.decode(answer.get("value"), values)
            except (wire.WireError, KeyError, TypeError, IndexError) as failure:
                raise errors.StudentBadValue(f"{call}: malformed answer ({failure})", call=call, exercise=self.exercise) from None
        info = answer.get("error")
        info = {k: str(v)[:2500] if isinstance(v, str) else v for k, v in (info or {}).items()} if isinstance(info, dict) else {}
        info.setdefault("type", "Error")
        info.setdefault("message", "")
        if info.get("bad_value"):
            raise errors.StudentBadValue(f"{call} returned a value that cannot be checked: {info['message']}",
                                         call=call, exercise=self.exercise)
        if info.get("import") and op == "import" and not info.get("not_implemented"):
            where = f" ({info['where']})" if info.get("where") else ""
            raise errors.StudentImportFailed(f"could not import your {self.module}.py: {info['type']}: {info['message']}{where}"
                                             f"{sibling_note(info.get('sibling', ''))}",
                                             call=call, exercise=self.exercise, sibling=info.get("sibling", ""))
        raise student_error(info, call=call, exercise=self.exercise)

    def _reset_peak(self) -> int | None:
        """Before a ``measure`` call: the child's resident KiB now, and its peak reset to it."""
        self.kernel_memory = None
        before = _status_kib(self.pid, "VmRSS")
        try:
            with open(f"/proc/{self.pid}/clear_refs", "w") as clear:
                clear.write("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
        except OSError:
            pass  # then VmHWM also counts earlier peaks: stricter, never laxer
        return before

    def _note_peak(self, before: int) -> None:
        peak = _status_kib(self.pid, "VmHWM")
        if peak is not None and self.baseline_kib is not None:
            self.kernel_memory = KernelMemory(held_before=max(before - self.baseline_kib, 0) * 1024,
                                              growth=max(peak - before, 0) * 1024)

    def printed(self) -> str:
        try:
            with open(self.output, "rb") as handle:
                text = handle.read(SHOWN_OUTPUT + 1).decode("utf-8", "replace")
        except OSError:
            return ""
        if not text.strip():
            return ""
        return "    " + text[:SHOWN_OUTPUT].rstrip().replace("\n", "\n    ") + ("..." if len(text) > SHOWN_OUTPUT else "")

    def kill(self) -> str:
        """SIGKILL the child's whole session; returns how it ended, for a message."""
        if self.dead or self.pid is None:
            return "had stopped"
        self.dead = True
        for kill in (os.killpg, os.kill):
            try:
                kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.sock.close()
        status = self.zygote.reap(self.pid)
        if "signal" in status:
            number = status["signal"]
            if number == signal.SIGKILL:
                return "was stopped"
            return f"crashed with {SIGNAL_NAMES.get(number, f'signal {number}')}"
        return f"exited (status {status.get('exit')})"

    def close(self) -> None:
        if not self.dead:
            self.kill()
