"""``attnkit grade SUBMISSIONS --out OUTDIR``: the instructor's command (see run.py)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attnkit.arguments import add_exercises_argument
from grader.sandbox import MEMORY_MB, STUDENT_SECONDS, TIMEOUT_SECONDS

from .run import main

__all__ = ["add_arguments", "main", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Grade a class: every submission in its own sandboxed processes, hidden checks included. "
                          "Interrupted runs resume where they stopped. See README.md, Instructors.")
    parser.add_argument("submissions", metavar="SUBMISSIONS",
                        help="a folder holding one folder or one .zip per student (the student id is the folder "
                             "name or the zip's stem); each holds exercises/<module>.py or the modules themselves")
    parser.add_argument("--out", required=True, metavar="OUTDIR",
                        help="where the grades go: grades.csv, one Gradescope-format <student>.json each, "
                             "summary.json, summary.txt (and PNGs with matplotlib); created if missing, and a "
                             "re-run skips the students already graded there")
    parser.add_argument("--jobs", type=int, default=None, metavar="N", help="parallel submissions (default: cores)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS, metavar="S",
                        help=f"seconds per call (default {TIMEOUT_SECONDS:g})")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB, metavar="MB",
                        help=f"memory per child (default {MEMORY_MB})")
    parser.add_argument("--student-timeout", type=float, default=STUDENT_SECONDS, metavar="S",
                        help="seconds all the calls of one submission may take together (default 60; each exercise "
                             "gets at most 3 x --timeout); past it the remaining checks fail as too slow")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--progress", dest="progress", action="store_true", default=None, help="always show a bar")
    shown.add_argument("--no-progress", dest="progress", action="store_false", help="line-based progress")
    parser.add_argument("--no-pictures", dest="pictures", action="store_false",
                        help="skip the class summary's PNGs (matplotlib is then not loaded: about half a second less "
                             "per run, for scripted runs)")
    add_exercises_argument(parser)


def run(args) -> int:  # defined after `from .run import main`: attnkit.grade.run the module stays importable
    try:
        return main(Path(args.submissions), Path(args.out), jobs=args.jobs, timeout=args.timeout,
                    memory_mb=args.memory_mb, progress=args.progress, student_timeout=args.student_timeout,
                    exercises=args.exercises, pictures=args.pictures)
    except KeyboardInterrupt:  # before the workers started
        print("\nattnkit grade: interrupted; nothing new was graded", file=sys.stderr)
        return 130
