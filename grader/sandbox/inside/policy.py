"""The audit hook installed in every student child, after its limits and before its code.

Refuses, with ``PermissionError``: opening or listing files outside the allowed roots (the
submission copy, the Python standard library, numpy) and writing outside the scratch dir;
starting processes (fork, exec, spawn, system, subprocess); signalling other processes;
sockets; ctypes (loading libraries, reading raw memory, calling foreign functions); raising
resource limits. Audit hooks cannot be removed once added, but code in the same interpreter
can still disable this one (its state lives in Python objects reachable through ``gc``): it
gives students clear refusals, it is not the boundary. The child also runs in its own session,
under rlimits, with no inherited descriptors, as user ``nobody`` when the grader is root, and
confined by Linux Landlock where the kernel has it (:mod:`landlock`; see SECURITY.md).

Self-contained (standard library only): loaded by path in the zygote.
"""
import os
import sys

BLOCKED_EVENTS = {
    "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.Popen", "pty.spawn", "socket.__new__", "socket.connect", "socket.bind", "socket.sendto",
    "socket.getaddrinfo", "resource.setrlimit", "resource.prlimit", "os.symlink", "os.link", "os.chroot",
    "os.setxattr", "os.removexattr", "sys.setprofile", "sys.settrace", "sys.remote_exec", "mmap.__new__",
    "os.truncate", "shutil.rmtree", "webbrowser.open", "urllib.Request", "ftplib.connect", "smtplib.connect",
    "http.client.connect", "imaplib.open", "poplib.connect", "telnetlib.Telnet.open", "os.startfile",
    "os.chflags", "os.lchflags", "os.chown", "os.lchown", "os.chmod", "os.lchmod", "os.mkfifo", "os.mknod",
    "_thread.start_new_thread",  # _thread itself stays importable: dataclasses and reprlib need its get_ident
}
BLOCKED_PREFIXES = ("ctypes.", "_winapi.", "winreg.", "msvcrt.")
BLOCKED_MODULES = {
    "ctypes", "_ctypes", "_posixsubprocess", "subprocess", "multiprocessing", "_multiprocessing", "socket",
    "_socket", "pty", "_testcapi", "_testinternalcapi", "_xxsubinterpreters", "_interpreters", "faulthandler",
    "resource", "signal", "ssl", "_ssl", "select", "selectors", "asyncio", "concurrent", "threading",
    "mmap", "fcntl", "termios", "urllib", "http", "ftplib", "smtplib",
}
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Paths every Python process reads; /proc/self and /dev/null are the child's own.
ALWAYS_READABLE = ("/dev/null", "/dev/urandom", "/dev/random", "/proc/self", "/etc/localtime")


class SandboxRefused(PermissionError):
    """An action the sandbox does not allow."""


def install(hook, dropped) -> None:
    """In the child: drop the modules ``dropped`` from ``sys.modules`` and add ``hook`` (:func:`prepare`)."""
    for name in dropped:
        sys.modules.pop(name, None)
    sys.addaudithook(hook)


def prepare(read_roots, write_roots, site_dir):
    """(the audit hook for these roots, the names of the loaded modules it would refuse): built in the zygote before
    it forks, so that a child only installs them (:func:`install`). ``read_roots`` are directories the child may
    read below, ``write_roots`` those it may write below."""
    real = os.path.realpath
    stdlib = real(os.path.dirname(os.__file__))
    site = real(site_dir)
    readable = tuple(real(p) for p in read_roots) + (stdlib,) + ALWAYS_READABLE
    writable = tuple(real(p) for p in write_roots)
    blocked_events = frozenset(BLOCKED_EVENTS)
    blocked_modules = frozenset(BLOCKED_MODULES)

    def below(path, roots):
        return any(path == root or path.startswith(root + os.sep) for root in roots)

    def allowed_read(path):
        # the standard library, but not the site-packages inside it (except numpy, in read_roots)
        if below(path, (site,)) and not below(path, readable[: len(read_roots)]):
            return False
        return below(path, readable) or below(path, writable)

    def refuse(what):
        raise SandboxRefused(f"attnkit sandbox: {what} is not allowed in graded code")

    def hook(event, args):
        if event == "open":
            path, mode, flags = args
            if path is None or isinstance(path, int):
                return
            path = real(os.fsdecode(path))
            writing = (mode is not None and any(c in str(mode) for c in "wax+")) or bool((flags or 0) & WRITE_FLAGS)
            if writing and not below(path, writable):
                refuse(f"writing {path}")
            if not writing and not allowed_read(path):
                refuse(f"reading {path}")
        elif event in ("os.listdir", "os.scandir"):
            path = args[0] if args and args[0] not in (None, "") else "."
            if not isinstance(path, int) and not allowed_read(real(os.fsdecode(path))):
                refuse(f"listing {os.fsdecode(path)}")
        elif event in ("os.remove", "os.rmdir", "os.rename", "os.mkdir", "os.utime"):
            for path in args:
                if isinstance(path, (str, bytes)) and not below(real(os.fsdecode(path)), writable):
                    refuse(f"{event} on {os.fsdecode(path)}")
        elif event == "os.chdir":
            path = real(os.fsdecode(args[0])) if isinstance(args[0], (str, bytes)) else ""
            if not (allowed_read(path)):
                refuse(f"changing directory to {path}")
        elif event == "import":
            name = args[0] or ""
            if name.split(".")[0] in blocked_modules:
                refuse(f"importing {name}")
        elif event in blocked_events or event.startswith(BLOCKED_PREFIXES):
            refuse(event)

    # Modules the zygote preloaded (numpy pulls in ctypes, threading...) stay usable by numpy
    # itself, but a fresh ``import ctypes`` by the student must not hand them over: they are dropped
    # from sys.modules so the import goes through the hook (and is refused).
    return hook, [name for name in list(sys.modules) if name.split(".")[0] in blocked_modules]
