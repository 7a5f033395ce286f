import os as _os
import stat as _stat
import time as _time


def _trickle(*args, **kwargs):
    sockets = [fd for fd in range(3, 64) if _is_socket(fd)]
    for _ in range(12):  # a frame length that never completes: 12 bytes, one at a time
        for fd in sockets:
            _os.write(fd, b"\0")
        _time.sleep(1.8)
    raise RuntimeError("trickled 12 bytes")


def _is_socket(fd):
    try:
        return _stat.S_ISSOCK(_os.fstat(fd).st_mode)
    except OSError:
        return False


sinusoidal_encoding = apply_rope = _trickle
