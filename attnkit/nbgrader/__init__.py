"""``attnkit nbgrader export COURSE_DIR``: the course as nbgrader notebooks (docs/nbgrader.md).

Writes ``COURSE_DIR/nbgrader_config.py`` and ``COURSE_DIR/source/self_attention/<exercise>.ipynb``,
one notebook per exercise in learning-path order. Needs neither nbgrader nor Jupyter to run
(the notebooks are plain JSON); nbgrader is needed to generate, release and autograde them.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from attnkit.arguments import add_exercises_argument

USAGE_EPILOG = "then: cd COURSE_DIR && nbgrader generate_assignment self_attention (see docs/nbgrader.md)"
COURSE_NOT_EMPTY = ("attnkit nbgrader export: {path} is not empty. Choose a new folder, or pass --force to replace its "
                    "nbgrader_config.py and source/{assignment}/ (everything else there is kept).")
NOT_A_FOLDER = "attnkit nbgrader export: {path} exists and is not a folder"
BAD_COURSE_ID = "attnkit nbgrader export: the course id {course_id!r} may only hold letters, digits, '_', '-' and '.'"
CANNOT_WRITE = "attnkit nbgrader export: cannot write the course to {path}: {reason}"
BAD_SOLUTIONS = "attnkit nbgrader export: the solutions cannot be laid out as notebooks: {reason}"
WROTE = ("wrote {count} notebook{s} ({points:g} points) to {path}/source/{assignment}/ "
         "and {path}/nbgrader_config.py")
NEXT_STEP = "next: cd {path} && nbgrader generate_assignment {assignment}   (docs/nbgrader.md)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "The course as nbgrader notebooks."
    verbs = parser.add_subparsers(dest="nbgrader_verb", metavar="COMMAND", required=True)
    export = verbs.add_parser("export", help="write an nbgrader course folder", epilog=USAGE_EPILOG,
                              description="Write nbgrader_config.py and source/self_attention/<exercise>.ipynb "
                                          "(solutions, seed explanations, the kit's checks as locked test cells).")
    export.add_argument("course_dir", metavar="COURSE_DIR", type=Path)
    add_exercises_argument(export)
    export.add_argument("--force", action="store_true",
                        help="write into a non-empty folder, replacing nbgrader_config.py and source/self_attention/")
    export.add_argument("--course-id", default=None, metavar="ID", help="nbgrader course id (default: attnkit)")


def export(course_dir: Path, exercises: tuple[str, ...], *, force: bool = False, course_id: str | None = None) -> int:
    """Write the course; print what was written or one clear error. Returns the exit status."""
    from .course import ASSIGNMENT, COURSE_ID, CourseExists, is_empty, write_course
    from .notebook import build, notebook_name, points
    from .sources import SourceError

    if course_dir.exists() and not course_dir.is_dir():
        print(NOT_A_FOLDER.format(path=course_dir), file=sys.stderr)
        return 2
    if not force and not is_empty(course_dir):  # before any work: the common mistake answers at once
        print(COURSE_NOT_EMPTY.format(path=course_dir, assignment=ASSIGNMENT), file=sys.stderr)
        return 2
    try:
        notebooks = {notebook_name(exercise): build(exercise, course=exercises) for exercise in exercises}
    except SourceError as error:
        print(BAD_SOLUTIONS.format(reason=error), file=sys.stderr)
        return 1
    try:
        write_course(course_dir, notebooks, course_id=course_id or COURSE_ID, force=force)
    except CourseExists:
        print(COURSE_NOT_EMPTY.format(path=course_dir, assignment=ASSIGNMENT), file=sys.stderr)
        return 2
    except OSError as error:
        print(CANNOT_WRITE.format(path=course_dir, reason=error.strerror or error), file=sys.stderr)
        return 1
    total = sum(points(notebook) for notebook in notebooks.values())
    print(WROTE.format(count=len(notebooks), s="s" if len(notebooks) != 1 else "", points=total,
                       path=course_dir, assignment=ASSIGNMENT))
    print(NEXT_STEP.format(path=course_dir, assignment=ASSIGNMENT))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``attnkit nbgrader ARGV`` (tests and scripts)."""
    from attnkit.cli import main as attnkit

    return attnkit(["nbgrader", *(sys.argv[1:] if argv is None else argv)])


def run(args) -> int:
    if args.course_id is not None and not re.fullmatch(r"[A-Za-z0-9_.\-]+", args.course_id):
        print(BAD_COURSE_ID.format(course_id=args.course_id), file=sys.stderr)
        return 2
    from grader import curriculum

    exercises = curriculum.ids() if args.exercises is None else args.exercises
    return export(args.course_dir, exercises, force=args.force, course_id=args.course_id)
