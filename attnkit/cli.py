"""The ``attnkit`` command: a thin argparse layer over the verbs.

Every verb is a package ``attnkit/<verb>/`` exposing ``add_arguments(parser)`` (its options and
sub-verbs, on the sub-parser made here) and ``run(args) -> int`` (the exit status). Only the
chosen verb's package is imported. A verb whose package is not installed (the student release
ships the students' verbs only) is not listed, and naming it says why.
"""
from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import importlib.util
import os
import sys
import threading

# Every verb and its line in ``attnkit --help``: the students' verbs first, then the instructors'.
VERBS = {
    "check": "check your exercises (default: ./exercises)",
    "watch": "re-run the checks of an exercise each time you save its file",
    "hint": "the next hint for an exercise",
    "pack": "zip your exercises to hand in (what attnkit grade and Gradescope accept)",
    "quiz": "self-study quizzes with spaced repetition; validate and export banks",
    "demo": 'a short tour: the worked "India is great" example, then the grader',
    "show": "pictures: attention heatmaps, positional encodings, ALiBi biases, sliding windows, your GPT's text",
    "grade": "grade a folder of submissions (instructors)",
    "nbgrader": "export the course as nbgrader notebooks (instructors)",
    "gradescope": "build a Gradescope autograder zip (instructors)",
    "release": "write the student release: stubs, public checks, quizzes (instructors)",
}
NOT_INSTALLED = "attnkit {verb}: not part of this installation (the student release has only: {verbs})"

# The grader runs one single-threaded process per core (see grader/sandbox/host/affinity.py);
# multi-threaded BLAS would only make the processes fight. Set before numpy is imported.
from grader.sandbox import SINGLE_THREADED  # noqa: E402  (no numpy behind it)

from . import early  # noqa: E402


def installed() -> tuple[str, ...]:
    """The verbs whose package is here, in the order of ``VERBS``."""
    return tuple(verb for verb in VERBS if _here(verb))


def _here(verb: str) -> bool:
    return importlib.util.find_spec(f"attnkit.{verb}") is not None


def parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The ``attnkit`` parser; only the ``chosen`` verb's package is imported to add its arguments. With an installed
    verb chosen, the others' sub-parsers are not made (they would only serve the top-level help, a few milliseconds
    of every command's start)."""
    top = argparse.ArgumentParser(prog="attnkit", description="Learn transformer self-attention with numpy: "
                                  "exercises checked in a sandbox, class grading, quizzes.")
    top.add_argument("--version", action="version", version=f"attnkit {_version()}")
    verbs = top.add_subparsers(dest="verb", metavar="COMMAND")
    for verb in (chosen,) if chosen in VERBS and _here(chosen) else installed():
        sub = verbs.add_parser(verb, help=VERBS[verb], description=VERBS[verb])
        if verb == chosen:
            importlib.import_module(f"attnkit.{verb}").add_arguments(sub)
            top.set_defaults(verb_parser=sub)
    return top


def _parse(argv: list[str], chosen: str | None) -> argparse.Namespace:
    """Parse ``argv``; an argument nobody knows is reported by the verb's parser (with the verb's usage)."""
    top = parser(chosen)
    args, unknown = top.parse_known_args(argv)
    if unknown:
        getattr(args, "verb_parser", top).error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _version() -> str:
    from attnkit import __version__

    return __version__


def entry() -> None:
    """The ``attnkit`` command as installed: :func:`main`, then the process ends at once.

    Tearing the interpreter down after ``attnkit check`` (every module's objects, a last garbage collection) took
    27-30 ms, the last thing before the prompt came back. What an exit must do still happens first: the output is
    flushed and the ``atexit`` functions run. Whenever another thread is still running (the interpreter would wait
    for it) or the output cannot be flushed (the interpreter reports a closed pipe), the process exits as usual.

    ``attnkit check`` runs without the cyclic garbage collector: one run, then the process ends. Each check leaves a
    few dozen objects in reference cycles (its diagnosis session and the calls it wrote down); collecting them took
    some 80 collections and 13-20 ms of the trusted process per run of all 17 exercises (×0.98 paired), for no memory
    that mattered (the peak resident size stayed 83 MB). ``attnkit watch`` collects after each report instead.

    When whoever reads the output stops reading (a pipe into ``head``), the command ends with status 1 and no
    traceback."""
    if sys.argv[1:2] == ["check"]:
        gc.disable()
    try:
        code = main()
    except BrokenPipeError:  # the reader of the output stopped reading (``attnkit check | head``): nothing is lost
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (what is still buffered goes nowhere)
        code = 1
    if threading.active_count() > 1:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    atexit._run_exitfuncs()  # (the one way to run them; os._exit skips them)
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    for name, value in SINGLE_THREADED.items():
        os.environ.setdefault(name, value)
    argv = sys.argv[1:] if argv is None else list(argv)
    early.start(argv)  # before anything else: the sandbox's zygote loads numpy while this process works
    try:
        return _run(argv)
    finally:
        early.discard()  # a zygote started for a verb that stopped before checking anything


def _run(argv: list[str]) -> int:
    chosen = argv[0] if argv and not argv[0].startswith("-") else None
    if chosen in VERBS and not _here(chosen):
        print(NOT_INSTALLED.format(verb=chosen, verbs=", ".join(installed())), file=sys.stderr)
        return 2
    from grader.curriculum import CourseFilesError

    from .arguments import UsageError

    try:
        args = _parse(argv, chosen)
        if args.verb is None:
            parser().print_help()
            return 0
        return int(importlib.import_module(f"attnkit.{args.verb}").run(args) or 0)
    except SystemExit as done:  # argparse: --help, --version (0) or a usage error it printed (2)
        return done.code if isinstance(done.code, int) else 2
    except (UsageError, CourseFilesError) as error:
        print(f"attnkit {chosen}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
