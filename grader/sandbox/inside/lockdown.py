"""In a freshly forked child, before any student code: lock the process down.

Loaded by path by the zygote (``attnkit_sandbox_lockdown``), like every module of this folder. In this order:
its own session (the trusted side kills the whole group), resource limits (memory, output, files, no core),
an IPC namespace of its own when root, the drop to the unprivileged user, no new process, the submission's
folder, environment and bytecode cache, capped printing, then the kernel's file confinement (Landlock), the
system-call filter (seccomp) and the audit hook (``policy``), the last one installed. Each later layer holds
where an earlier one is unavailable.
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


def lock_down(request, site_dir):
    """Confine this child as the spawn ``request`` says (its limits, user, CPU, submission and scratch folders,
    the folders it may read); ``site_dir``: numpy's site directory, which it may read too."""
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
    sys.stdout, sys.stderr = capped_streams(1, limits["print_bytes"])
    try:  # kernel-enforced file, signal, ptrace and TCP confinement where Linux has Landlock (5.13+)
        landlock.confine(request["read_roots"], [request["scratch"]], site_dir)
    except OSError:
        pass  # available but refused (e.g. a seccomp filter): the audit hook below still applies
    try:  # no SysV IPC, keyring or namespace calls (Linux x86_64)
        seccomp.deny()
    except OSError:
        pass  # refused (an outer filter forbids it): the IPC namespace above still holds
    policy.lock_down(read_roots=request["read_roots"], write_roots=[request["scratch"]], site_dir=site_dir)


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
