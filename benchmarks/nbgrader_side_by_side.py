"""Side by side with nbgrader: the same submissions graded by ``nbgrader autograde`` and ``attnkit grade``.

The course comes from ``attnkit nbgrader export`` (the same 40 checks, one test cell each).
Half the class hands in the notebooks filled with the reference solutions, half the untouched
release; the same students hand in the same code as folders to ``attnkit grade --jobs 2``.
Skipped, with a line saying so, when nbgrader is not installed.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .class_grading import checks_per_submission
from .measure import ROOT, attnkit, run_command


def run(size: int) -> dict:
    if importlib.util.find_spec("nbgrader") is None:
        return {"skipped": "nbgrader is not installed (pip install -e '.[nbgrader]'); side-by-side not measured"}
    from attnkit.nbgrader import export
    from attnkit.nbgrader.course import ASSIGNMENT
    from attnkit.nbgrader.harness import jupyter_env, submit
    from grader import curriculum

    checks = checks_per_submission()
    with tempfile.TemporaryDirectory(prefix="attnkit-bench-nb-") as work:
        work = Path(work)
        course = work / "course"
        with contextlib.redirect_stdout(io.StringIO()):  # its 'wrote 7 notebooks' lines
            export(course, curriculum.ids())
        env = jupyter_env(work / "jupyter")
        subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT], cwd=course, env=env,
                       check=True, capture_output=True)
        folders = work / "folders"
        for index in range(size):
            student = f"student{index:03d}"
            correct = index % 2 == 0
            submit(course, student, fill=correct)
            shutil.copytree(ROOT / ("solutions" if correct else "exercises"), folders / student / "exercises",
                            ignore=shutil.ignore_patterns("__pycache__"))
        start = time.perf_counter()
        graded = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT], cwd=course, env=env,
                                capture_output=True, text=True)
        nbgrader_seconds = time.perf_counter() - start
        if graded.returncode != 0:
            return {"skipped": f"nbgrader autograde failed: {graded.stderr.strip().splitlines()[-1:]}"}
        ours = run_command(attnkit("grade", str(folders), "--out", str(work / "out"), "--jobs", "2", "--no-progress"))
    rows = [{"tool": "nbgrader autograde", "submissions": size, "seconds": nbgrader_seconds},
            {"tool": "attnkit grade --jobs 2", "submissions": size, "seconds": ours.seconds}]
    for row in rows:
        row["per_submission_s"] = row["seconds"] / size
        row["ms_per_check"] = row["seconds"] * 1000 / (size * checks)
    return {"rows": rows, "ratio_per_submission": nbgrader_seconds / ours.seconds,
            "ratio_per_check": rows[0]["ms_per_check"] / rows[1]["ms_per_check"],
            "note": "both from process start to exit; nbgrader grades serially, one kernel per notebook"}
