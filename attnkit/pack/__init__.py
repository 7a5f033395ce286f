"""``attnkit pack``: the zip a student hands in, exactly what ``attnkit grade`` and Gradescope accept.

It holds ``exercises/<module>.py`` for every exercise module of the learning path found in
``--impl`` (default ``./exercises``) and nothing else: no ``.venv``, no ``__pycache__``, no
notes or data. Written atomically; an existing zip is replaced only with ``--force``. It then says
which modules do not import and which functions are still stubs (``health.py``); the zip is written anyway.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

DEFAULT_OUTPUT = "submission.zip"
NO_IMPL = "attnkit pack: no folder {path}. Run this inside your attnkit folder, or name your folder with --impl DIR."
NO_MODULES = "attnkit pack: {path} holds none of the exercise modules ({modules}); nothing to hand in."
EXISTS = "attnkit pack: {path} already exists; pass --force to replace it, or choose another name with -o"
NOT_ZIP = "attnkit pack: {path}: the hand-in is a .zip; name it something.zip"
INSIDE = "attnkit pack: {path} is inside {impl}; write the zip somewhere else (the default is ./submission.zip)"
CANNOT_WRITE = "attnkit pack: cannot write {path} ({reason}); choose a file in a folder you can write to with -o"
PACKED = "wrote {path}: {modules} ({count} of {total} exercise modules{missing})."
READY = "Hand in this file."
BROKEN = "  {module}.py does not import, so every check of it scores 0: {reason}"
STUBS = "  {module}.py still raises the stub's NotImplementedError in {names}"
NOT_READY = ("Written anyway. Fix these (attnkit check shows what is wrong) and run attnkit pack --force again, "
             "or hand in this file as it is.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Zip your exercise modules (exercises/<module>.py, nothing else) into the file to hand "
                          "in: the zip attnkit grade and the Gradescope autograder take.")
    parser.add_argument("--impl", default="exercises", metavar="DIR", help="the folder with your modules")
    parser.add_argument("-o", "--output", default=DEFAULT_OUTPUT, metavar="ZIP",
                        help=f"the zip to write (default {DEFAULT_OUTPUT})")
    parser.add_argument("--force", action="store_true", help="replace the zip if it exists")


def run(args) -> int:
    return main(args.impl, args.output, force=args.force)


def modules(impl: Path) -> dict[str, Path]:
    """The zip's entries: ``exercises/<module>.py`` -> the student's file, for each module of the learning path."""
    from grader import curriculum

    found = {}
    for exercise in curriculum.exercises():
        path = impl / f"{exercise.id}.py"
        if path.is_file() and not path.is_symlink():
            found[f"exercises/{exercise.id}.py"] = path
    return found


def main(impl: str | Path = "exercises", output: str | Path = DEFAULT_OUTPUT, force: bool = False,
         out=None) -> int:
    """Write the hand-in zip; returns the exit status (0 written, 2 a user error)."""
    out = out or sys.stdout
    from attnkit.archive import zip_bytes
    from attnkit.arguments import exercises_folder
    from grader import atomic, curriculum
    from grader.runner import modules_dir_of

    found = exercises_folder(impl)
    if found != Path(impl) and str(output) == DEFAULT_OUTPUT:  # run from inside the attnkit folder's subfolders
        output = found.parent / DEFAULT_OUTPUT  # beside exercises/, where it is written from the attnkit folder
    impl, output = found, Path(output)
    if not impl.is_dir():
        return _refuse(NO_IMPL.format(path=impl))
    impl = modules_dir_of(impl)
    if output.suffix.lower() != ".zip":
        return _refuse(NOT_ZIP.format(path=output))
    if output.absolute().resolve().is_relative_to(impl.resolve()):
        return _refuse(INSIDE.format(path=output, impl=impl))
    if output.exists() and not force:
        return _refuse(EXISTS.format(path=output))
    entries = modules(impl)
    every = [e.id for e in curriculum.exercises()]
    if not entries:
        return _refuse(NO_MODULES.format(path=impl, modules=", ".join(f"{m}.py" for m in every)))
    try:
        atomic.write_bytes(output, zip_bytes(entries))
    except OSError as error:
        return _refuse(CANNOT_WRITE.format(path=output, reason=error.strerror or error))
    absent = [m for m in every if f"exercises/{m}.py" not in entries]
    print(PACKED.format(path=output, modules=", ".join(sorted(entries)), count=len(entries), total=len(every),
                        missing=f"; missing: {', '.join(absent)}" if absent else ""), file=out)
    from .health import examine

    packed = {e.id: e.id for e in curriculum.exercises() if f"exercises/{e.id}.py" in entries}
    health = examine(impl, packed)
    for module in packed.values():
        if module in health.broken:
            print(BROKEN.format(module=module, reason=health.broken[module]), file=out)
        elif module in health.stubs:
            print(STUBS.format(module=module, names=", ".join(health.stubs[module])), file=out)
    print(NOT_READY if health.broken or health.stubs else READY, file=out)
    return 0


def _refuse(message: str) -> int:
    print(message, file=sys.stderr)
    return 2
