"""Kernel-enforced confinement of a student child with Linux Landlock (no root needed).

The audit hook of :mod:`policy` runs inside the student's interpreter, so code that reaches
the hook's objects (``gc``, closures, monkeypatching ``os``) or writes memory through numpy can
switch it off. Landlock is enforced by the kernel and can only ever be tightened: after
:func:`confine` the child may read only below its read roots (its submission copy, the standard
library without site-packages, numpy), write only below its scratch dir, not connect or bind
TCP sockets (Landlock ABI 4+), and not signal or ptrace any process outside itself (ABI 6+;
ptrace from ABI 1). Children inherit it; it survives ``setuid``.

Where the kernel has no Landlock (not Linux, Linux < 5.13, or disabled), :func:`confine` does
nothing and returns 0: the audit hook, the rlimits and user ``nobody`` (when root) remain.
``python grader/sandbox/inside/landlock.py`` confines a test process and prints what this machine enforces.

Self-contained (standard library only): loaded by path in the zygote, which calls
:func:`confine` in each child after its rlimits and before the audit hook.
"""
import ctypes
import os
import sys

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # the same on every architecture but alpha
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TRUNCATE, IOCTL_DEV = 1 << 14, 1 << 15
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1, 5: (1 << 16) - 1}
NET_TCP = (1 << 0) | (1 << 1)                  # bind and connect TCP (ABI 4+): handled, never allowed
SCOPE_ALL = (1 << 0) | (1 << 1)                # abstract unix sockets and signals (ABI 6+)
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the only rights a rule on a file may hold
# Files every child may use besides its roots (as in policy.ALWAYS_READABLE); /dev/null is also writable.
DEVICES = {"/dev/null": READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV, "/dev/urandom": READ_FILE | IOCTL_DEV,
           "/dev/random": READ_FILE | IOCTL_DEV, "/etc/localtime": READ_FILE, "/proc/self": READ_FILE | READ_DIR}
SITE_DIRS = {"site-packages", "dist-packages"}


class RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


try:
    _libc = ctypes.CDLL(None, use_errno=True)
    _syscall, _prctl = _libc.syscall, _libc.prctl
    _syscall.restype = _prctl.restype = ctypes.c_long
except (OSError, AttributeError):  # not Linux / no libc symbol
    _syscall = _prctl = None  # type: ignore[assignment]


def abi() -> int:
    """The Landlock ABI version this kernel offers (0: none)."""
    if _syscall is None or not sys.platform.startswith("linux"):
        return 0
    version = _syscall(ctypes.c_long(SYS_CREATE_RULESET), None, ctypes.c_size_t(0),
                       ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(int(version), 0)


def stdlib_roots(site_dir: str) -> list:
    """The standard library's directory, or its entries minus site-packages when site-packages is inside it."""
    stdlib = os.path.realpath(os.path.dirname(os.__file__))
    site = os.path.realpath(site_dir)
    if not (site + os.sep).startswith(stdlib + os.sep):
        return [stdlib]
    return [os.path.join(stdlib, name) for name in sorted(os.listdir(stdlib)) if name not in SITE_DIRS]


def _add(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # missing or unreachable: nothing to allow
    try:
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        attr = PathBeneathAttr(rights, fd)
        if _syscall(ctypes.c_long(SYS_ADD_RULE), ctypes.c_long(ruleset), ctypes.c_long(RULE_PATH_BENEATH),
                    ctypes.byref(attr), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule({path}): {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)


def confine(read_roots, write_roots, site_dir) -> int:
    """Restrict this process (and its future children) for good; returns the ABI used (0: not available).

    Raises OSError when Landlock is available but could not be applied (the caller should not run
    student code then).
    """
    made = ruleset(read_roots, write_roots, site_dir)
    if made is None:
        return 0
    fd, version = made
    try:
        restrict(fd)
    finally:
        os.close(fd)
    return version


def ruleset(read_roots, write_roots, site_dir):
    """(a ruleset's descriptor, the ABI it uses) allowing what :func:`confine` allows, or None where Landlock is not
    available; nothing is restricted yet. The zygote makes one per submission and each of its children restricts
    itself with it (:func:`restrict`): the rules are the same, and a child makes no rule of its own. OSError when
    the kernel refuses."""
    version = min(abi(), 6)
    if version < 1:
        return None
    fs = FS_BY_ABI.get(version, FS_BY_ABI[5])
    attr = RulesetAttr(fs, NET_TCP if version >= 4 else 0, SCOPE_ALL if version >= 6 else 0)
    size = 8 if version < 4 else 16 if version < 6 else 24
    fd = _syscall(ctypes.c_long(SYS_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}")
    try:
        read = (READ_FILE | READ_DIR) & fs
        for root in list(read_roots) + stdlib_roots(site_dir):
            _add(fd, root, read)
        for root in write_roots:
            _add(fd, root, fs & ~EXECUTE)
        for path, rights in DEVICES.items():
            _add(fd, path, rights & fs)
    except BaseException:
        os.close(fd)
        raise
    return fd, version


def restrict(fd: int) -> None:
    """Restrict this process for good with the ruleset ``fd`` (:func:`ruleset`); OSError when refused."""
    if _prctl(ctypes.c_int(PR_SET_NO_NEW_PRIVS), ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0),
              ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if _syscall(ctypes.c_long(SYS_RESTRICT_SELF), ctypes.c_long(fd), ctypes.c_uint32(0)) != 0:
        raise OSError(ctypes.get_errno(), f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}")


def self_test() -> str:
    """Confine a forked process to an empty folder and check that it can no longer read this file."""
    import tempfile

    version = abi()
    if version < 1:
        return "Landlock is not available: sandboxed children rely on the audit hook, rlimits and user nobody"
    with tempfile.TemporaryDirectory() as empty:
        pid = os.fork()
        if pid == 0:
            try:
                confine([empty], [], os.path.dirname(os.path.dirname(os.__file__)))
                open(__file__, "rb").close()
                os._exit(1)  # still readable: not confined
            except PermissionError:
                os._exit(0)
            except BaseException:
                os._exit(2)
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if status != 0:
        return f"Landlock ABI {version} is offered but confining a process failed (status {status})"
    return (f"Landlock ABI {version}: sandboxed children are confined by the kernel (files"
            + (", TCP" if version >= 4 else "") + (", signals" if version >= 6 else "") + ")")


if __name__ == "__main__":
    print(self_test())
