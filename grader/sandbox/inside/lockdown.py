"""In a freshly forked child, before any student code: lock the process down.

Loaded by path by the zygote (``attnkit_sandbox_lockdown``), like every module of this folder. The zygote prepares
each child before it forks it (:func:`prepare`: the environment and bytecode folder the child inherits, the
Landlock ruleset made once per submission, the audit hook, the capped streams); the child then applies, in this
order (:func:`lock_down`): its own session (the trusted side kills the whole group), its CPU, resource limits (memory,
output, files, no core), an IPC namespace of its own when root, the drop to the unprivileged user, no new process,
the submission's folder, capped printing, then the kernel's file confinement (Landlock), the system-call filter
(seccomp) and the audit hook (``policy``), the last one installed. Each later layer holds where an earlier one is
unavailable.
"""
import ctypes
import os
import resource
import signal
import sys

try:  # inside the grader package
    from . import landlock, policy, seccomp
    from .runtime import capped_streams
except ImportError:  # loaded by path in the zygote, where the grader package is not importable
    import attnkit_sandbox_landlock as landlock  # type: ignore[no-redef]
    import attnkit_sandbox_policy as policy  # type: ignore[no-redef]
    import attnkit_sandbox_seccomp as seccomp  # type: ignore[no-redef]
    from attnkit_sandbox_runtime import capped_streams  # type: ignore[no-redef]

MADV_POPULATE_READ = 22  # Linux 5.14+


class Prepared:
    """What the zygote computes for one child before it forks it (:func:`prepare`), so that the child itself only
    makes system calls (:func:`lock_down`): the Landlock ruleset's descriptor (or None where Landlock is missing),
    the audit hook with the modules it drops, and the capped output streams. A fork copies nothing the child has
    not touched, and every page a child touches first is a copy made for it: work done once in the zygote costs a
    child nothing."""

    __slots__ = ("ruleset", "hook", "dropped", "streams")

    def __init__(self, ruleset, hook, dropped, streams):
        self.ruleset, self.hook, self.dropped, self.streams = ruleset, hook, dropped, streams


_latest: dict = {}  # in the zygote: the Prepared of the latest submission's folders, by their identity (see prepare)


def prepare(request, site_dir):
    """In the zygote, before it forks the child of the spawn ``request``: what the child applies (:class:`Prepared`),
    and what a child inherits from its parent made ready in the zygote itself: the environment (``TMPDIR`` and
    ``HOME`` the scratch folder, ``PATH``) and the bytecode folder. (Not the CPU: a child moved there after the fork,
    as before, uses the same memory for a measured call as before; a zygote moved there made the reference's tiled
    attention count 0.86 MiB instead of 0.73, means of 8 zygotes each.)

    All of it is made once per submission: its key is the identity (device and inode) of each folder
    the child may read or write, so a scratch folder removed and made again (its quota) gets a ruleset of its own
    (while the old ruleset is kept here, its rules hold the removed folder's inode, whose number therefore cannot be
    given to the new folder). Each child gets its own copy of what the zygote holds, as it was before the fork."""
    read_roots, write_roots = list(request["read_roots"]), [request["scratch"]]
    key = (tuple(_identity(root) for root in read_roots + write_roots), request["limits"]["print_bytes"])
    if key not in _latest:
        for earlier in _latest.values():
            if earlier.ruleset is not None:
                os.close(earlier.ruleset)
        _latest.clear()
        os.environ.clear()
        os.environ.update({"TMPDIR": request["scratch"], "HOME": request["scratch"], "PATH": "/usr/bin:/bin"})
        # bytecode of the submission goes to the folder the trusted side names, in its scratch dir: the next child of
        # the same submission (another exercise, or after a crash) loads it instead of compiling again
        sys.pycache_prefix = request["bytecode"]
        sys.dont_write_bytecode = False
        hook, dropped = policy.prepare(read_roots=read_roots, write_roots=write_roots, site_dir=site_dir)
        # printing past print_bytes is discarded, not an error (a forgotten debug print in a loop must not cost
        # points); the output file's RLIMIT_FSIZE stays the hard limit for writes that bypass sys.stdout. fd 1 is
        # the child's output file once forked; the zygote never writes through these
        streams = capped_streams(1, request["limits"]["print_bytes"])
        _latest[key] = Prepared(_ruleset(read_roots, write_roots, site_dir), hook, dropped, streams)
    return _latest[key]


def _identity(path):
    try:
        status = os.stat(path)
    except OSError:
        return path, None, None  # missing: no rule for it (landlock._add), and a new key once it exists
    return path, status.st_dev, status.st_ino


def _ruleset(read_roots, write_roots, site_dir):
    """The Landlock ruleset's descriptor for these folders; None where Landlock is not available, or refused (the
    layers after it still apply)."""
    try:
        made = landlock.ruleset(read_roots, write_roots, site_dir)
    except OSError:
        return None  # available but refused (e.g. a seccomp filter): the audit hook still applies
    return None if made is None else made[0]


def lock_down(request, prepared):
    """In the freshly forked child: confine it as the spawn ``request`` says (its limits, user, submission folder)
    with what the zygote ``prepared`` for it. In this order: its own session (the trusted side kills the whole
    group), resource limits, an IPC namespace of its own when root, the drop to the unprivileged user, no new
    process, the submission's folder, capped printing, then the kernel's file confinement (Landlock), the system-call
    filter (seccomp) and the audit hook (``policy``), the last one installed."""
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
    sys.stdout, sys.stderr = prepared.streams
    if prepared.ruleset is not None:
        try:  # kernel-enforced file, signal, ptrace and TCP confinement where Linux has Landlock (5.13+)
            landlock.restrict(prepared.ruleset)
        except OSError:
            pass  # available but refused (e.g. a seccomp filter): the audit hook below still applies
        os.close(prepared.ruleset)  # the child's copy (the zygote keeps its own for the submission's next child)
    try:  # no SysV IPC, keyring or namespace calls (Linux x86_64)
        seccomp.deny()
    except OSError:
        pass  # refused (an outer filter forbids it): the IPC namespace above still holds
    policy.install(prepared.hook, prepared.dropped)


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
