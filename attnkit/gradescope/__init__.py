"""``attnkit gradescope``: a Gradescope autograder for the kit (instructors). See docs/gradescope.md.

``attnkit gradescope build -o autograder.zip`` writes the zip to upload (build.py);
``attnkit gradescope run`` is what its ``run_autograder`` calls for each submission (autograde.py).
"""
from __future__ import annotations

import argparse
import os
import sys

from attnkit.arguments import add_exercises_argument, positive_seconds, whole_number
from grader.sandbox import MEMORY_MB, TIMEOUT_SECONDS

USAGE = """attnkit gradescope build -o autograder.zip [--force] [--exercises IDS|FILE] [--timeout S] [--memory-mb MB]
       attnkit gradescope run [--root DIR] [--timeout S] [--memory-mb MB]"""
ROOT_VARIABLE = "ATTNKIT_GRADESCOPE_ROOT"
DEFAULT_ROOT = "/autograder"
BUILT = ("wrote {path} ({size:.0f} KiB: setup.sh, run_autograder, wheels/{wheel}). Upload it as the autograder "
         "of a Gradescope programming assignment worth {points:g} points (see docs/gradescope.md).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.usage = USAGE
    verbs = parser.add_subparsers(dest="gradescope_verb", required=True, metavar="{build,run}", prog=parser.prog)
    build = verbs.add_parser("build", help="write the autograder zip")
    build.add_argument("-o", "--output", required=True, metavar="ZIP",
                       help="the autograder zip to write (refused if it exists, unless --force)")
    build.add_argument("--force", action="store_true", help="replace the zip if it exists")
    add_exercises_argument(build)
    run = verbs.add_parser("run", help="grade ROOT/submission into ROOT/results/results.json (run_autograder)")
    run.add_argument("--root", default=os.environ.get(ROOT_VARIABLE, DEFAULT_ROOT), metavar="DIR",
                     help=f"Gradescope's folder (default ${ROOT_VARIABLE} or {DEFAULT_ROOT})")
    for verb in (build, run):
        verb.add_argument("--timeout", type=positive_seconds, default=TIMEOUT_SECONDS, metavar="S",
                          help=f"seconds per call (default {TIMEOUT_SECONDS:g})")
        verb.add_argument("--memory-mb", type=whole_number(1), default=MEMORY_MB, metavar="MB",
                          help=f"memory per child (default {MEMORY_MB})")


def main(argv: list[str] | None = None) -> int:
    """``attnkit gradescope ARGV`` (tests and scripts)."""
    from attnkit.cli import main as attnkit

    return attnkit(["gradescope", *(sys.argv[1:] if argv is None else argv)])


def run(args) -> int:
    from pathlib import Path

    if args.gradescope_verb == "run":
        from .autograde import run as grade_submission

        return grade_submission(Path(args.root), timeout=args.timeout, memory_mb=args.memory_mb)
    from .build import BundleError, WheelFailed, build

    try:
        bundle = build(Path(args.output), force=args.force, timeout=args.timeout, memory_mb=args.memory_mb,
                       exercises=args.exercises)
    except BundleError as error:
        print(error, file=sys.stderr)
        return 1 if isinstance(error, WheelFailed) else 2
    from grader import curriculum

    points = curriculum.total_points(args.exercises)
    print(BUILT.format(path=bundle.path, size=bundle.size / 1024, wheel=bundle.wheel, points=points))
    return 0
