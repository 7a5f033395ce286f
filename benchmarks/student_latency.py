"""Student latency: ``attnkit check`` wall time from process start (median of several runs)."""
from __future__ import annotations

from .measure import ROOT, attnkit, median, run_command


def run(repeats: int = 5) -> list[dict]:
    rows = []
    for label, folder in (("correct exercises (the reference)", ROOT / "solutions"),
                          ("untouched stubs", ROOT / "exercises")):
        runs = [run_command(attnkit("check", "--impl", str(folder))) for _ in range(repeats + 1)][1:]
        rows.append({"impl": label, "median_s": median(r.seconds for r in runs),
                     "min_s": min(r.seconds for r in runs), "status": runs[-1].status})
    return rows
