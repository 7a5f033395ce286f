"""``python -m attnkit.grade SUBMISSIONS --out OUTDIR [--jobs N] [--timeout S] [--memory-mb MB]``."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="attnkit grade", description="Grade a folder of submissions "
                                "(one folder or .zip per student) into OUTDIR.")
    p.add_argument("submissions", metavar="SUBMISSIONS")
    p.add_argument("--out", required=True, metavar="OUTDIR")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="parallel submissions (default: cores)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds per call (default 10)")
    p.add_argument("--memory-mb", type=int, default=2048, metavar="MB", help="memory per child (default 2048)")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--progress", dest="progress", action="store_true", default=None, help="always show a bar")
    shown.add_argument("--no-progress", dest="progress", action="store_false", help="line-based progress")
    return p


def cli(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from . import main

    try:
        return main(Path(args.submissions), Path(args.out), jobs=args.jobs, timeout=args.timeout,
                    memory_mb=args.memory_mb, progress=args.progress)
    except KeyboardInterrupt:  # before the workers started
        print("\nattnkit grade: interrupted; nothing new was graded", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(cli())
