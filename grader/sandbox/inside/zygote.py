"""The zygote: a clean interpreter with numpy preloaded that forks one child per request.

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
status; ``{"op": "release", "pid": N}`` (a killed child nobody waits for: reaped once it has exited, no
answer); ``{"op": "settle"}`` answered once every released child is reaped; ``{"op": "exit"}``.
"""
import importlib.util
import ctypes
import json
import mmap
import os
import resource
import signal
import socket
import sys

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
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, filename))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


wire = load_by_path("attnkit_sandbox_wire", os.path.join(os.path.dirname(HERE), "wire.py"))  # shared by both sides
runtime_module = load_by_path("attnkit_sandbox_runtime", "runtime.py")
standin = load_by_path("attnkit_sandbox_standin", "standin.py")
policy = load_by_path("attnkit_sandbox_policy", "policy.py")
landlock = load_by_path("attnkit_sandbox_landlock", "landlock.py")
seccomp = load_by_path("attnkit_sandbox_seccomp", "seccomp.py")
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
import gc  # noqa: E402
gc.collect()
gc.freeze()  # children never scan (and so never copy-on-write) the zygote's own objects


MADV_POPULATE_READ = 22  # Linux 5.14+


def populate_mapped_files():
    """In a child started for a memory check: map in every page of the files it has mapped (the interpreter,
    numpy, BLAS), which fork does not copy. Its resident memory then grows during the check only by what the
    student's code allocates, not by the library code it happens to run first. Nothing where it is refused.
    Memory files (the shared argument region, ``/memfd:...``) and deleted files are left alone: reading them in
    would allocate their pages (64 MiB of zeros for the region), which no call of a memory check touches."""
    libc = seccomp._prepared.libc if seccomp._prepared is not None else None
    if libc is None:
        return
    madvise = libc.madvise
    madvise.argtypes, madvise.restype = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int), ctypes.c_int
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        for line in maps:
            fields = line.split()
            path = " ".join(fields[5:])  # a folder name may hold spaces
            if path.startswith("/") and not path.startswith("/memfd:") and not path.endswith(" (deleted)") \
                    and fields[1].startswith("r"):
                start, end = (int(bound, 16) for bound in fields[0].split("-"))
                madvise(start, end - start, MADV_POPULATE_READ)


def serve(sock, request, region=None):
    """In the child: lock the process down, then answer requests until the socket closes. ``region``: the
    memory the trusted side writes the arguments of a call into (its arrays are views of it)."""
    os.setsid()  # own session and process group: the trusted side kills the whole group
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # over the output cap: writes fail, no silent kill
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if request.get("populate"):
        populate_mapped_files()
    if request.get("cpu") is not None and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {int(request["cpu"])})  # beside the grader process it answers to
        except OSError:
            pass
    limits = request["limits"]
    for name, value in (("RLIMIT_AS", limits["memory_bytes"]), ("RLIMIT_FSIZE", limits["output_bytes"]),
                        ("RLIMIT_CORE", 0), ("RLIMIT_NOFILE", 64)):
        resource.setrlimit(getattr(resource, name), (value, value))
    if os.geteuid() == 0:  # SysV IPC objects made in a namespace of its own die with the child
        seccomp.own_ipc_namespace()
    if request.get("uid") is not None and os.geteuid() == 0:
        os.setgroups([])
        os.setgid(request["gid"])
        os.setuid(request["uid"])
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))  # no new process or thread (not enforced on root)
    os.chdir(request["submission"])
    os.environ.clear()
    os.environ.update({"TMPDIR": request["scratch"], "HOME": request["scratch"], "PATH": "/usr/bin:/bin"})
    # bytecode of the submission goes to its own scratch dir: the next child of the same
    # submission (another exercise, or after a crash) loads it instead of compiling again
    sys.pycache_prefix = os.path.join(request["scratch"], "pycache")
    sys.dont_write_bytecode = False
    # printing past print_bytes is discarded, not an error (a forgotten debug print in a loop must not cost
    # points); the output file's RLIMIT_FSIZE stays the hard limit for writes that bypass sys.stdout
    sys.stdout, sys.stderr = runtime_module.capped_streams(1, limits["print_bytes"])
    try:  # kernel-enforced file, signal, ptrace and TCP confinement where Linux has Landlock (5.13+)
        landlock.confine(request["read_roots"], [request["scratch"]], SITE_DIR)
    except OSError:
        pass  # available but refused (e.g. a seccomp filter): the audit hook below still applies
    try:  # no SysV IPC, keyring or namespace calls (Linux x86_64)
        seccomp.deny()
    except OSError:
        pass  # refused (an outer filter forbids it): the IPC namespace above still holds
    policy.lock_down(read_roots=request["read_roots"], write_roots=[request["scratch"]],
                     site_dir=SITE_DIR)
    runtime = runtime_module.Runtime(request["submission"])
    runtime.watch_bytes = False  # the trusted side compares the bytes in the shared region (shared.py)
    if request.get("stand_ins"):  # attnkit grade: sibling exercises answered by the reference (standin.py)
        standin.install(request["stand_ins"], standin.Caller(sock), runtime.root, runtime.package,
                        runtime_module.LENT_CLASSES)
    if request.get("own_stand_ins"):  # and the exercise's own other functions, while one of them runs
        runtime.own_stand_ins = standin.own_functions(request["own_stand_ins"], standin.Caller(sock))
    exercise = request.get("exercise", "")
    if request.get("populate"):  # the trusted side reads its baseline once this is in (memory.py)
        reply(sock, {"ready": True})
    while True:
        try:
            header, arrays = wire.recv(sock)
        except (wire.WireError, OSError):
            return
        shared = header.get("shared")
        try:
            if shared is not None and region is not None:
                arrays = wire.shared_arrays(region, shared)
            args = wire.decode(header.get("args", {"t": "tuple", "items": []}), arrays)
            kwargs = wire.decode(header.get("kwargs", {"t": "list", "items": []}), arrays)
            kwargs = dict(kwargs)
            result = runtime.run(header["op"], header["target"], args, kwargs, header.get("name", ""))
        except (KeyboardInterrupt, SystemExit, Exception) as error:  # the student's code failed or left
            info = runtime.describe_error(error, exercise)
            info["import"] = header.get("op") == "import" or isinstance(error, (ImportError, SyntaxError))
            if isinstance(error, SystemExit):
                code = runtime_module.safe_text(error.code, repr)[:200]
                info["type"], info["message"] = "SystemExit", f"your code called sys.exit({code})"
            reply(sock, {"ok": False, "error": info})
            continue
        except BaseException as error:  # noqa: B902 - student-defined BaseException subclasses
            reply(sock, {"ok": False, "error": runtime.describe_error(error, exercise)})
            continue
        finally:
            arrays = args = kwargs = None
            if shared and region is not None:  # its pages leave this process's resident memory (kept in the region)
                forget(region, shared)
        out = []
        try:
            tree = wire.encode(result, out, handles=runtime.keep)
        except Exception as error:  # TypeError, ValueError; MemoryError, RecursionError from a value's methods
            reply(sock, {"ok": False, "error": {"type": "BadValue", "message": runtime_module.safe_text(error)[:500],
                                                "bad_value": True}})
            continue
        try:
            wire.send(sock, {"ok": True, "value": tree, "mutated": runtime.last_mutated}, out)
        except Exception as error:  # e.g. MemoryError making a zero-stride view contiguous (before sending anything)
            reply(sock, {"ok": False, "error": {"type": "BadValue", "message": runtime_module.safe_text(error)[:500],
                                                "bad_value": True}})


def forget(region, specs):
    """Drop the pages of one call's arguments (``specs``: [dtype, shape, offset]) from this process's memory."""
    try:
        low = min(spec[2] for spec in specs) // mmap.PAGESIZE * mmap.PAGESIZE
        high = max(spec[2] + numpy.dtype(spec[0]).itemsize * math.prod(spec[1]) for spec in specs)
        region.madvise(mmap.MADV_DONTNEED, low, min(high, len(region)) - low)
    except (OSError, ValueError, TypeError, AttributeError, IndexError):
        pass


def reply(sock, header):
    try:
        wire.send(sock, header)
    except OSError:
        os._exit(3)


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
            if int(request["pid"]) in children:
                released.add(int(request["pid"]))
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
            pid = os.fork()
            if pid == 0:
                try:
                    control.close()
                    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                    os.dup2(output_fd, 1)
                    os.dup2(output_fd, 2)
                    low = 3
                    for keep in sorted({child_sock_fd, *shared_fd}):
                        os.closerange(low, keep)
                        low = keep + 1
                    os.closerange(low, 1 << 16)
                    region = None
                    if shared_fd:  # the arguments' shared memory (shared.py), mapped before the audit hook
                        region = mmap.mmap(shared_fd[0], int(request.get("shared_bytes", 0)))
                        os.close(shared_fd[0])
                    serve(socket.socket(fileno=child_sock_fd), request, region)
                finally:
                    os._exit(0)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            control.sendall(json.dumps({"pid": pid}).encode())
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
