"""Isolation overhead: the full check suite on the reference, in-process (the floor) vs sandboxed.

Wall time as the students and instructors see it, and CPU time (this process's own, and the zygote's with its reaped
children: :mod:`benchmarks.child_costs`), which a machine shared with other work does not blur. With it, what one
child's life and one round trip cost (:mod:`benchmarks.child_costs`).
"""
from __future__ import annotations

import time
from pathlib import Path

from grader import curriculum
from grader.runner import run_exercise, run_submission
from grader.sandbox import Sandbox, in_process

from . import child_costs
from .measure import ROOT, median


def _in_process(solutions: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one in-process run."""
    start, cpu = time.perf_counter(), time.process_time()
    for exercise in curriculum.ids():
        run_exercise(exercise, lambda e: in_process(solutions, e))
    return time.perf_counter() - start, time.process_time() - cpu


def run(repeats: int = 7) -> dict:
    """Median seconds per submission both ways (after one warm-up each), and their ratio; the same in CPU time
    (the medians of each side); a child's life and a round trip in CPU milliseconds."""
    solutions = ROOT / "solutions"
    _in_process(solutions)
    floors = [_in_process(solutions) for _ in range(repeats)]
    floor, floor_cpu = median(wall for wall, _ in floors), median(cpu for _, cpu in floors)
    with Sandbox() as sandbox, sandbox.pinned(0):
        with sandbox.session(solutions) as session:
            run_submission(session)
        walls, cpus = [], []
        for _ in range(repeats):
            sandbox.zygote.settle()
            before, start = child_costs.cpu(sandbox), time.perf_counter()
            with sandbox.session(solutions) as session:
                run_submission(session)
            walls.append(time.perf_counter() - start)
            sandbox.zygote.settle()
            after = child_costs.cpu(sandbox)
            cpus.append(after[0] - before[0] + after[1] - before[1])
        life = child_costs.lives(sandbox, 20 * repeats)
        trip = child_costs.round_trips(sandbox, 300 * repeats)
    isolated, isolated_cpu = median(walls), median(cpus)
    return {"in_process_ms": floor * 1000, "isolated_ms": isolated * 1000, "ratio": isolated / floor,
            "in_process_cpu_ms": floor_cpu * 1000, "isolated_cpu_ms": isolated_cpu * 1000,
            "cpu_ratio": isolated_cpu / floor_cpu, "child_life_cpu_ms": life["total_ms"],
            "round_trip_cpu_ms": trip["total_ms"]}
