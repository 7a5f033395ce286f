import os as _os


def _nest(levels=1100):
    back = _os.getcwd()
    _os.chdir(_os.environ["TMPDIR"])  # the scratch dir; names below are relative to it
    fd = _os.open(".", _os.O_RDONLY)
    try:
        for _ in range(levels):
            _os.mkdir("d" * 200, dir_fd=fd)
            inner = _os.open("d" * 200, _os.O_RDONLY, dir_fd=fd)
            _os.close(fd)
            fd = inner
    finally:
        _os.close(fd)
        _os.chdir(back)


_nest()
