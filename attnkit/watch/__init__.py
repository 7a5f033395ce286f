"""``attnkit watch``: re-run the checks of an exercise each time its file is saved.

Checks every exercise once at the start, then polls the modification times of ``IMPL/*.py``
(no extra dependency, works on every OS and editor); when a module changes, its exercise is checked
again in the sandbox at once, with the same report and notes as ``attnkit check``
(:func:`attnkit.check.check_and_report`), and then, in a report of their own, the exercises that use it
(those that depend on it, from the learning path): the file just saved is answered first.
One zygote stays warm for the whole session, so a re-check takes about as long as the checks
themselves. Ctrl-C stops.
"""
from __future__ import annotations

import gc
import sys
import time
from pathlib import Path
from typing import Callable

from grader.sandbox import TIMEOUT_SECONDS

WATCHING = "attnkit watch: watching {path} (Ctrl-C stops). Save a file to check the exercises that use it."
FIRST = "\n--- {clock}: checking every exercise"
CHANGED = "\n--- {names} changed at {clock}: checking {exercises}"
USERS = "\n--- and the exercises that use {names}: {exercises}"
STOPPED = "\nattnkit watch: stopped"


def snapshot(folder: Path) -> dict[str, float]:
    """Modification time of each module in ``folder``, by module name."""
    times = {}
    for path in folder.glob("*.py"):
        try:
            times[path.stem] = path.stat().st_mtime
        except OSError:  # removed between glob and stat (editors replace files)
            continue
    return times


def affected(changed: set[str]) -> tuple[str, ...]:
    """The exercises whose module changed, and every exercise that (transitively) uses one of them."""
    from grader import curriculum

    return curriculum.users_of(e.id for e in curriculum.exercises() if e.id in changed)


def add_arguments(parser) -> None:
    from attnkit.arguments import positive_seconds

    parser.add_argument("--impl", default="exercises", metavar="DIR", help="the folder with your modules")
    parser.add_argument("--timeout", type=positive_seconds, default=TIMEOUT_SECONDS, metavar="S",
                        help=f"seconds per call (default {TIMEOUT_SECONDS:g})")


def run(args) -> int:
    return main(args.impl, args.timeout)


def main(impl: str | Path = "exercises", timeout: float = TIMEOUT_SECONDS, interval: float = 0.5, out=None,
         rounds: int | None = None, sleep: Callable[[float], None] = time.sleep) -> int:
    """Watch ``impl``; ``rounds`` (for tests) stops after that many polls."""
    out = out or sys.stdout
    from attnkit import early
    from attnkit.arguments import exercises_folder
    from attnkit.check import NO_IMPL, check_and_report
    from grader import curriculum
    from grader.runner import modules_dir_of
    from grader.sandbox import Limits, Sandbox

    folder = exercises_folder(impl)
    if not folder.is_dir():
        print(NO_IMPL.format(path=folder).replace("attnkit check", "attnkit watch"), file=sys.stderr)
        return 2
    modules = modules_dir_of(folder)
    print(WATCHING.format(path=modules), file=out, flush=True)
    seen = snapshot(modules)
    polls = 0
    def check(exercises: tuple[str, ...]) -> None:
        gc.disable()  # the cycles the checks leave are collected once the report is shown (see attnkit.cli.entry)
        try:
            check_and_report(modules, sandbox, exercises, out, time.perf_counter())
        finally:
            gc.enable()
            gc.collect()

    try:
        with Sandbox(Limits(timeout=timeout), launched=early.take()) as sandbox:
            print(FIRST.format(clock=time.strftime("%H:%M:%S")), file=out)
            check(curriculum.ids())
            while rounds is None or polls < rounds:
                polls += 1
                sleep(interval)
                now = snapshot(modules)
                changed = {name for name in now if seen.get(name) != now[name]}
                seen = now
                exercises = affected(changed)
                saved = tuple(e for e in exercises if e in changed)
                users = tuple(e for e in exercises if e not in changed)
                names = ", ".join(sorted(f"{n}.py" for n in changed))
                if saved:
                    print(CHANGED.format(names=names, clock=time.strftime("%H:%M:%S"), exercises=", ".join(saved)),
                          file=out)
                    check(saved)
                if users:
                    print(USERS.format(names=names, exercises=", ".join(users)), file=out)
                    check(users)
    except KeyboardInterrupt:
        print(STOPPED, file=out)
        return 130
    return 0
