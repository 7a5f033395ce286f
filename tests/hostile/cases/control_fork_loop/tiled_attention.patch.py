import os


def _start(how):
    if how == "fork":
        if os.fork() == 0:
            os.execv("/bin/sleep", ["sleep", "300"])
    elif how == "posix_spawn":
        os.posix_spawn("/bin/sleep", ["sleep", "300"], {})
    elif how == "system":
        if os.system("sleep 300 &") != 0:
            raise OSError("system failed")
    elif how == "subprocess":
        import subprocess
        subprocess.Popen(["sleep", "300"])
    else:
        import multiprocessing
        multiprocessing.Process(target=os.getpid).start()


def _fork_loop(*args, **kwargs):
    started, errors = 0, []
    for how in ("fork", "fork", "fork", "posix_spawn", "posix_spawn", "system", "subprocess", "multiprocessing"):
        try:
            _start(how)
            started += 1
        except Exception as error:
            errors.append(f"{how}: {type(error).__name__}")
    raise RuntimeError(f"started {started} of 8 processes ({'; '.join(errors)})")


tiled_attention = _fork_loop
