"""Class grading: ``attnkit grade`` on synthetic classes, --jobs 1 and 2, and how cost grows with size."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from grader import curriculum
from grader.runner import discover

from .measure import attnkit, run_command
from .synthetic_class import make_class

TIMEOUT = "1"  # seconds per call: the class's endless loop costs two timeouts


def checks_per_submission() -> int:
    return sum(len(discover(exercise)) for exercise in curriculum.ids())


def grade_class(size: int, jobs: int, work: Path) -> dict:
    """Grade a fresh synthetic class of ``size`` with ``jobs`` workers, from process start to exit."""
    folder = work / f"class{size}"
    if not folder.exists():
        make_class(folder, size)
    out = work / f"out{size}-j{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    run = run_command(attnkit("grade", str(folder), "--out", str(out), "--jobs", str(jobs), "--timeout", TIMEOUT,
                              "--no-progress"), sample=True)
    lines = (out / "grades.csv").read_text().splitlines() if (out / "grades.csv").exists() else []
    checks = checks_per_submission()
    return {"size": size, "jobs": jobs, "seconds": run.seconds, "status": run.status, "graded": max(len(lines) - 1, 0),
            "per_second": size / run.seconds, "ms_per_check": run.seconds * 1000 / (size * checks),
            "peak_mb": run.peak_mb}


def run(sizes: list[int], jobs_list: list[int]) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="attnkit-bench-") as work:
        for size in sizes:
            for jobs in jobs_list:
                rows.append(grade_class(size, jobs, Path(work)))
    return rows
