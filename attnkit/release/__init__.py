"""attnkit release OUT_DIR [--force] [--exercises IDS|FILE]: what students get, and OUT_DIR.zip for an LMS.

The release holds the exercise stubs, the public checks (hidden ones removed), the hints, the
quizzes, a README for students and a ``pyproject.toml`` that installs ``attnkit`` without the
reference solutions; the checks compare with values recorded from the reference (see
build.py, record.py, replay.py). With ``--exercises``, only a course's subset of the exercises
(and the banks, hints and points that go with them). ``python -m attnkit.release.stubs``
regenerates ``exercises/``.
"""
from __future__ import annotations

import argparse
import sys

from attnkit.arguments import add_exercises_argument

USAGE = "attnkit release OUT_DIR [--force] [--exercises IDS|FILE]"
DESCRIPTION = ("Write what students get (the exercise stubs, the public checks answering from recorded reference "
               "values, hints, quizzes, a README; no solutions, no hidden checks) into OUT_DIR, and OUT_DIR.zip "
               "beside it for an LMS. See docs/release.md.")
DONE = ("wrote {folder} ({files} files: exercises/, {checks} public checks worth {points:g} points, quizzes/, "
        "README.md, pyproject.toml; {hidden} hidden checks left out; {calls} recorded reference calls, "
        "{size:.0f} KiB) and {archive} for your LMS")
UNVERIFIED = ("note: {checks} failed on the reference nudged within tolerance, so the build could not check that "
              "the rest of their path gives `ref` only the check's own inputs; loosen what they compare exactly")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.usage = USAGE
    parser.description = DESCRIPTION
    parser.add_argument("out", metavar="OUT_DIR", help="the folder to write (OUT_DIR.zip is written beside it)")
    parser.add_argument("--force", action="store_true", help="replace OUT_DIR and OUT_DIR.zip if they exist")
    add_exercises_argument(parser)


def main(argv: list[str] | None = None) -> int:
    """``attnkit release ARGV`` (tests and scripts)."""
    from attnkit.cli import main as attnkit

    return attnkit(["release", *(sys.argv[1:] if argv is None else argv)])


def run(args) -> int:
    from pathlib import Path

    from .build import BuildFailed, ReleaseError, build

    try:
        release = build(Path(args.out), force=args.force, exercises=args.exercises)
    except ReleaseError as error:
        print(error, file=sys.stderr)
        return 2
    except BuildFailed as error:
        print(error, file=sys.stderr)
        return 1
    print(DONE.format(folder=release.folder, files=release.files, checks=release.public_checks,
                      points=release.public_points, hidden=release.hidden_checks, calls=release.recorded_calls,
                      size=release.recorded_bytes / 1024, archive=release.archive))
    if release.unverified:
        print(UNVERIFIED.format(checks=", ".join(release.unverified)), file=sys.stderr)
    return 0
