"""The zygote: a clean interpreter with numpy preloaded that forks one child per request (the fork server).

A child locks itself down (``lockdown.py``: with what the zygote prepared for it before the fork), then answers the
trusted side's requests (``answer.py``).

Started by :class:`grader.sandbox.host.spawner.Zygote` as ``python -I -S zygote.py FD SITE_DIR [STDLIB_COPY]``:
isolated mode, no site-packages processing (so no editable-install finder can map
``solutions`` or ``grader`` into it), and only numpy's site directory appended to sys.path.
It never imports the grader, the checks or the reference, so a child forked from it has
none of them in memory. With STDLIB_COPY (a copy of the standard library that user ``nobody``
may read, see :mod:`preflight`), every import path into the installed standard library is
pointed at the copy before any child is forked.

Control protocol on the inherited Unix socket FD (one JSON object per message):
``{"op": "spawn", ...}`` with the child's socket and output file passed as SCM_RIGHTS
descriptors, answered ``{"pid": N}``; ``{"op": "reap", "pid": N}`` answered with the exit
status; ``{"op": "release", "pid": N}`` (a child nobody waits for: killed here, with its session, and reaped once
it has exited; no answer); ``{"op": "settle"}`` answered once every released child is reaped; ``{"op": "exit"}``.
"""
import gc
import importlib.util
import json
import mmap
import os
import signal
import socket
import sys

gc.disable()  # no collection while it starts: its objects are frozen below, and children never scan them
CONTROL_FD = int(sys.argv[1])
SITE_DIR = sys.argv[2]
STDLIB_COPY = sys.argv[3] if len(sys.argv) > 3 else ""
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(SITE_DIR)

import numpy  # noqa: E402  (preloaded once; every child inherits it)
import numpy.fft  # noqa: E402,F401
import numpy.linalg  # noqa: E402,F401
import numpy.random  # noqa: E402,F401
import math, itertools, functools, collections, traceback, importlib, tracemalloc, types, io, struct  # noqa: E401,E402,F401
# what student code often imports besides: compiled in each submission's first child otherwise (its pycache is the
# scratch dir, so the standard library's own bytecode is not used there)
import copy, dataclasses, heapq, string  # noqa: E401,E402,F401


def load_by_path(name, filename):
    """The module of this folder in ``filename``, as ``name``. Its bytecode is kept beside it (``__pycache__``, as an
    import of the grader package keeps it), so a zygote compiles it once, not at every start (``attnkit check`` never
    imports most of these modules itself); everything else stays under ``-B`` (the modules' own imports too)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, filename))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.dont_write_bytecode = False
    try:
        code = spec.loader.get_code(name)
    finally:
        sys.dont_write_bytecode = True
    exec(code, module.__dict__)
    return module


# loaded once, before any child, in this order: each module finds the ones before it by their names here
load_by_path("attnkit_sandbox_wire", os.path.join(os.path.dirname(HERE), "wire.py"))  # shared by both sides
load_by_path("attnkit_sandbox_failing_line", "failing_line.py")
load_by_path("attnkit_sandbox_runtime", "runtime.py")
load_by_path("attnkit_sandbox_standin", "standin.py")
load_by_path("attnkit_sandbox_policy", "policy.py")
load_by_path("attnkit_sandbox_landlock", "landlock.py")
seccomp = load_by_path("attnkit_sandbox_seccomp", "seccomp.py")
lockdown = load_by_path("attnkit_sandbox_lockdown", "lockdown.py")  # a child's lock-down
answer = load_by_path("attnkit_sandbox_answer", "answer.py")  # and its request loop
seccomp.prepare()  # libc and the filter once, not in every child
numpy.zeros(4) @ numpy.zeros(4)  # warm up BLAS
numpy.random.default_rng(0).standard_normal(4)


def use_stdlib_copy(stdlib):
    """Children (as ``nobody``) import the standard library from ``stdlib`` (a copy): sys.path and the search paths
    of the packages already loaded (``json``, ``encodings``...) move there."""
    original = os.path.realpath(os.path.dirname(os.__file__))

    def moved(path):
        real = os.path.realpath(path)
        if real == original or real.startswith(original + os.sep):
            return stdlib + real[len(original):]
        return path

    sys.path[:] = [moved(p) for p in sys.path]
    for module in list(sys.modules.values()):
        search = getattr(module, "__path__", None)
        if isinstance(search, list):
            search[:] = [moved(p) if isinstance(p, str) else p for p in search]
    sys.path_importer_cache.clear()


if STDLIB_COPY:
    use_stdlib_copy(STDLIB_COPY)
gc.freeze()  # children never scan (and so never copy-on-write) the zygote's own objects, its start's garbage included
gc.enable()  # (no full collection first: 5 ms of the zygote's start for a few hundred objects)


def serve(sock, request, prepared, region=None):
    """In the child: lock the process down with what the zygote ``prepared``, then answer requests until the socket
    closes. Nothing runs when the preparation failed."""
    if prepared is not None:
        lockdown.lock_down(request, prepared)
        answer.answer(sock, request, region)


def reap_exited(released, children):
    """Reap the released children that have exited (killed, they exit at once; none is waited for here)."""
    for pid in list(released):
        try:
            done = os.waitpid(pid, os.WNOHANG)[0] != 0
        except ChildProcessError:
            done = True
        if done:
            released.discard(pid)
            children.discard(pid)


def main():
    control = socket.socket(fileno=CONTROL_FD)
    children = set()
    released = set()  # killed by the trusted side, which does not wait for their status
    while True:
        try:
            message, fds, _flags, _addr = socket.recv_fds(control, 65536, 4)
        except OSError:
            message, fds = b"", []
        if not message:
            break
        request = json.loads(message)
        reap_exited(released, children)
        if request["op"] == "release":
            pid = int(request["pid"])
            if pid in children:
                for kill in (os.killpg, os.kill):  # its whole session, then itself (were it in another group)
                    try:
                        kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                released.add(pid)
        elif request["op"] == "settle":
            for pid in released:
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
            children -= released
            released.clear()
            control.sendall(b"{}")
        elif request["op"] == "spawn":
            child_sock_fd, output_fd, *shared_fd = fds
            try:  # what every child of this submission shares is computed here once, not in each child
                prepared = lockdown.prepare(request, SITE_DIR)
            except Exception:  # noqa: BLE001 - the child then exits without running anything (the import fails)
                prepared = None
            ruleset = [prepared.ruleset] if prepared is not None and prepared.ruleset is not None else []
            pid = os.fork()
            if pid == 0:
                try:
                    control.close()
                    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                    os.dup2(output_fd, 1)
                    os.dup2(output_fd, 2)
                    low = 3
                    for keep in sorted({child_sock_fd, *shared_fd, *ruleset}):
                        os.closerange(low, keep)
                        low = keep + 1
                    os.closerange(low, 1 << 16)
                    region = None
                    if shared_fd:  # the arguments' shared memory (shared.py), mapped before the audit hook
                        region = mmap.mmap(shared_fd[0], int(request.get("shared_bytes", 0)))
                        os.close(shared_fd[0])
                    serve(socket.socket(fileno=child_sock_fd), request, prepared, region)
                finally:
                    os._exit(0)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            # the answer written as bytes: right after a fork every page the zygote writes is copied, and the JSON
            # encoder's machinery alone is dozens of them (its objects' reference counts)
            control.sendall(b'{"pid": %d}' % pid)
        elif request["op"] == "reap":
            pid = int(request["pid"])
            status = os.waitpid(pid, 0)[1] if pid in children else 0
            children.discard(pid)
            if os.WIFSIGNALED(status):
                answer = {"signal": os.WTERMSIG(status)}
            else:
                answer = {"exit": os.waitstatus_to_exitcode(status)}
            control.sendall(json.dumps(answer).encode())
        elif request["op"] == "exit":
            break
    for pid in children:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(0)


main()
