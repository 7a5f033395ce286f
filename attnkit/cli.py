"""The ``attnkit`` command: a thin argparse layer over each verb's ``main(...)``."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

# Verbs that parse everything after the verb themselves: "module" means ``module.main(argv)``,
# "module:function" ``module.function(argv)``.
DELEGATED = {
    "grade": ("attnkit.grade.__main__:cli", "grade a folder of submissions (instructors)"),
    "quiz": ("attnkit.quiz", "self-study quizzes with spaced repetition; validate and export banks"),
    "nbgrader": ("attnkit.nbgrader", "export the course as nbgrader notebooks (instructors)"),
    "gradescope": ("attnkit.gradescope", "build a Gradescope autograder zip (instructors)"),
    "release": ("attnkit.release", "write the student release: stubs, public checks, quizzes (instructors)"),
    "show": ("attnkit.show", "pictures: attention heatmaps and positional encodings"),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="attnkit", description="Learn transformer self-attention with numpy: "
                                     "exercises checked in a sandbox, class grading, quizzes.")
    parser.add_argument("--version", action="version", version=f"attnkit {_version()}")
    verbs = parser.add_subparsers(dest="verb", metavar="COMMAND")

    demo = verbs.add_parser("demo", help="a short tour: the seed's worked example, then the grader")
    demo.set_defaults(run=lambda a: _call("attnkit.demo", "main"))

    check = verbs.add_parser("check", help="check your exercises (default: ./exercises)")
    check.add_argument("exercises", nargs="*", metavar="EXERCISE", help="only these exercises (default: all)")
    check.add_argument("--impl", default="exercises", metavar="DIR", help="the folder with your modules")
    check.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds per call (default 10)")
    check.set_defaults(run=lambda a: _call("attnkit.check", "main", a.exercises, a.impl, a.timeout))

    watch = verbs.add_parser("watch", help="re-run the checks of an exercise each time you save its file")
    watch.add_argument("--impl", default="exercises", metavar="DIR", help="the folder with your modules")
    watch.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds per call (default 10)")
    watch.set_defaults(run=lambda a: _call("attnkit.watch", "main", a.impl, a.timeout))

    hint = verbs.add_parser("hint", help="the next hint for an exercise")
    hint.add_argument("exercise", metavar="EXERCISE")
    hint.add_argument("--task", type=int, default=None, help="the task number (as in the check output)")
    hint.add_argument("--all", action="store_true", dest="show_all", help="show every hint of the task")
    hint.add_argument("--reset", action="store_true", help="start again from the first hint")
    hint.set_defaults(run=lambda a: _call("attnkit.hint", "main", a.exercise, a.task, a.show_all, a.reset))

    for verb, (_, help_text) in DELEGATED.items():  # listed in --help; parsed by the verb itself
        verbs.add_parser(verb, help=help_text, add_help=False)
    return parser


def _version() -> str:
    from attnkit import __version__

    return __version__


def _call(module: str, function: str, *args):
    return getattr(importlib.import_module(module), function)(*args)


# The grader runs one single-threaded process per core (see grader.sandbox.affinity);
# multi-threaded BLAS would only make the processes fight. Set before numpy is imported.
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def main(argv: list[str] | None = None) -> int:
    for name, value in SINGLE_THREADED.items():
        os.environ.setdefault(name, value)
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in DELEGATED:  # a verb with sub-verbs and options of its own gets its arguments as they are
        try:
            module, _, function = DELEGATED[argv[0]][0].partition(":")
            return int(getattr(importlib.import_module(module), function or "main")(argv[1:]) or 0)
        except KeyboardInterrupt:
            print("\ninterrupted", file=sys.stderr)
            return 130
    parser = _parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 0
    try:
        status = args.run(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
