"""Isolation overhead: the full check suite on the reference, in-process (the floor) vs sandboxed."""
from __future__ import annotations

import time
from pathlib import Path

from grader import curriculum
from grader.runner import run_exercise, run_submission
from grader.sandbox import Sandbox, in_process

from .measure import ROOT, median


def _in_process(solutions: Path) -> float:
    start = time.perf_counter()
    for exercise in curriculum.ids():
        run_exercise(exercise, lambda e: in_process(solutions, e))
    return time.perf_counter() - start


def run(repeats: int = 7) -> dict:
    """Median seconds per submission both ways (after one warm-up each), and their ratio."""
    solutions = ROOT / "solutions"
    _in_process(solutions)
    floor = median(_in_process(solutions) for _ in range(repeats))
    with Sandbox() as sandbox, sandbox.pinned(0):
        with sandbox.session(solutions) as session:
            run_submission(session)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            with sandbox.session(solutions) as session:
                run_submission(session)
            times.append(time.perf_counter() - start)
    isolated = median(times)
    return {"in_process_ms": floor * 1000, "isolated_ms": isolated * 1000, "ratio": isolated / floor}
