"""``python -m attnkit.grade SUBMISSIONS --out OUTDIR [--jobs N] [--timeout S] [--memory-mb MB]``."""
from __future__ import annotations

import sys


def cli(argv: list[str] | None = None) -> int:
    """``attnkit grade ARGV``."""
    from attnkit.cli import main

    return main(["grade", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(cli())
