"""A seccomp filter for student children: no SysV IPC, no keyring, no new namespaces (Linux x86_64).

SysV shared memory, message queues and semaphores outlive the process that made them, and detached
shared memory is not counted in its ``RLIMIT_AS``; keyring keys outlive it too; ``unshare`` and
``setns`` would let a child leave the IPC namespace the zygote gave it. After :func:`deny`, those
calls fail with ``EPERM``, and every 32-bit or x32 system call (another numbering, e.g. ``ipc()``)
fails too. Filters are inherited and cannot be removed. Needs ``no_new_privs`` (set here) and
Linux 3.5+; on other architectures or systems :func:`deny` does nothing and returns False.

Self-contained (standard library only): loaded by path in the zygote, which calls :func:`deny`
in each child after Landlock and before the audit hook.
"""
import ctypes
import errno
import os
import platform

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
DENIED = {  # x86_64 numbers
    "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "shmdt": 67, "msgget": 68,
    "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "semtimedop": 220, "add_key": 248, "request_key": 249,
    "keyctl": 250, "unshare": 272, "setns": 308,
}
LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
NR_OFFSET, ARCH_OFFSET = 0, 4  # in struct seccomp_data


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def program() -> list:
    """The BPF program: (code, jt, jf, k) per instruction."""
    refuse = (RET_K, 0, 0, RET_ERRNO | errno.EPERM)
    steps = [(LD_W_ABS, 0, 0, ARCH_OFFSET), (JEQ_K, 1, 0, AUDIT_ARCH_X86_64), refuse,
             (LD_W_ABS, 0, 0, NR_OFFSET), (JGE_K, 0, 1, X32_SYSCALL_BIT), refuse]
    numbers = sorted(DENIED.values())
    for index, number in enumerate(numbers):  # on a match, jump to the refusal after the last test
        steps.append((JEQ_K, len(numbers) - index, 0, number))
    return steps + [(RET_K, 0, 0, RET_ALLOW), refuse]


def available() -> bool:
    return os.uname().sysname == "Linux" and platform.machine() == "x86_64"


class _Prepared:
    """libc and the filter, made once in the zygote (:func:`prepare`): a child only makes the system calls."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True) if os.uname().sysname == "Linux" else None
        self.filter = None
        if available():
            steps = program()
            self.filters = (SockFilter * len(steps))(*[SockFilter(*step) for step in steps])
            self.filter = SockFprog(len(steps), self.filters)


_prepared: _Prepared | None = None


def prepare() -> "_Prepared":
    """Load libc and build the filter now (the zygote, before it forks), not in every child."""
    global _prepared
    if _prepared is None:
        _prepared = _Prepared()
    return _prepared


def deny() -> bool:
    """Install the filter on this process for good; False where it is not available. OSError if refused."""
    prepared = prepare()
    libc, prog = prepared.libc, prepared.filter
    if prog is None:
        return False
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
    return True


CLONE_NEWIPC = 0x08000000


def own_ipc_namespace() -> bool:
    """Move this process into a new, empty SysV IPC namespace (needs root); False where not allowed.

    Whatever a child creates there disappears with it, even if the filter of :func:`deny` is missing."""
    libc = prepare().libc
    if libc is None:
        return False
    return libc.unshare(CLONE_NEWIPC) == 0
