"""``attnkit grade SUBMISSIONS --out OUTDIR``: the instructor's command (see run.py)."""
from __future__ import annotations

from .run import main

__all__ = ["main"]
