"""Side by side with an earlier revision of the kit: one synthetic class, graded by both in the same run.

``python -m benchmarks --only versus --versus REV``: REV is checked out in a temporary git worktree
and runs with this interpreter; this checkout grades the same classes with ``--exercises`` set to REV's
curriculum, so both grade the same course. Two classes of ``size`` (:data:`MIXES`): half the reference and
half one classic mistake each (the common case in a real class: every failing comparison is diagnosed),
and the reference only. Per class the two alternate ``repeats`` times (medians reported); checks per
submission are counted in each tool's Gradescope results, so per check and per submission are both shown.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from .class_grading import TIMEOUT
from .measure import ROOT, attnkit, median, run_command
from .synthetic_class import make_class

MIXES = ("half_failing", "all_correct")


def course_of(worktree: Path) -> list[str]:
    """The exercise ids of a revision's curriculum file (its only list of exercises)."""
    data = yaml.safe_load((worktree / "grader" / "curriculum.yaml").read_text())
    return [entry["id"] for entry in data["exercises"]]


def checks_graded(out: Path) -> int:
    """Checks per submission, as the Gradescope results of one student list them."""
    first = next(iter(sorted(out.glob("*.json"))), None)
    return len(json.loads(first.read_text())["tests"]) if first else 0


def _grade(argv: list[str], out: Path, cwd: Path, env: dict | None = None) -> float:
    shutil.rmtree(out, ignore_errors=True)
    run = run_command(argv + ["--out", str(out), "--jobs", "2", "--timeout", TIMEOUT], cwd=cwd, env=env)
    if run.status not in (0, 1):
        raise RuntimeError(f"{' '.join(argv[:4])}... exited with status {run.status}")
    return run.seconds


def _side_by_side(work: Path, worktree: Path, course: list[str], mix: str, size: int, repeats: int) -> dict:
    folder = work / mix
    make_class(folder, size, mix=mix)
    earlier = [sys.executable, "-m", "attnkit", "grade", str(folder)]
    current = attnkit("grade", str(folder), "--exercises", ",".join(course))
    times: dict[str, list[float]] = {"earlier": [], "current": []}
    for _ in range(repeats):
        times["earlier"].append(_grade(earlier, work / "out-earlier", worktree, {"PYTHONPATH": str(worktree)}))
        times["current"].append(_grade(current, work / "out-current", ROOT))
    checks = {"earlier": checks_graded(work / "out-earlier"), "current": checks_graded(work / "out-current")}
    rows = []
    for tool, label in (("earlier", "earlier"), ("current", "this checkout")):
        seconds = median(times[tool])
        rows.append({"tool": label, "seconds": seconds, "runs": times[tool], "per_second": size / seconds,
                     "checks": checks[tool], "ms_per_check": seconds * 1000 / (size * max(checks[tool], 1))})
    return {"mix": mix, "size": size, "rows": rows,
            "speedup": rows[0]["seconds"] / rows[1]["seconds"],
            "ratio_per_check": rows[1]["ms_per_check"] / rows[0]["ms_per_check"]}


def run(revision: str, size: int = 200, repeats: int = 1) -> dict:
    with tempfile.TemporaryDirectory(prefix="attnkit-versus-") as work:
        work = Path(work)
        worktree = work / "earlier"
        made = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree), revision],
                              capture_output=True, text=True)
        if made.returncode != 0:
            return {"skipped": f"no worktree of {revision!r}: {made.stderr.strip()[:200]}"}
        try:
            course = course_of(worktree)
            classes = [_side_by_side(work, worktree, course, mix, size, repeats) for mix in MIXES]
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                           capture_output=True)
    return {"revision": revision, "size": size, "repeats": repeats, "exercises": course, "classes": classes}
