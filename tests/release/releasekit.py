"""Helpers for the student-release tests: run the release in an interpreter that cannot see the project.

``python -I -S`` (isolated, no site processing: the project's editable install, which would map
``solutions`` and ``grader`` to the source tree, is never loaded) with ``sys.path`` = the
release folder, then the directory holding numpy and the other dependencies.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
SITE = str(Path(importlib.util.find_spec("numpy").origin).parents[1])

LAUNCH = """import sys
sys.path[:0] = [{release!r}, {site!r}]
import importlib.util
if importlib.util.find_spec("solutions") is not None:
    raise SystemExit("isolation broken: solutions is importable")
"""

CLI = LAUNCH + """from attnkit.cli import main
sys.exit(main(sys.argv[1:]))
"""

# Grade several implementation folders with the release's own runner; results as JSON in a file.
GRADE = LAUNCH + """import json
from grader.runner import run_submission
from grader.sandbox import Limits, Sandbox
jobs = json.loads(open(sys.argv[1]).read())
out = []
with Sandbox(Limits(timeout=20)) as sandbox:
    for folder, exercises in jobs:
        with sandbox.session(folder) as session:
            results = run_submission(session, tuple(exercises) if exercises else None)
        out.append([[c.exercise, c.name, c.status, c.points, c.max_points, c.mistake, c.message]
                    for r in results for c in r.checks])
open(sys.argv[2], "w").write(json.dumps(out))
"""


def isolated(release: Path, script: str, *args: str, cwd: Path | None = None, env: dict | None = None,
             timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``script`` (one of the templates above) against ``release`` in an isolated interpreter."""
    code = script.format(release=str(release), site=SITE)
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **(env or {})}
    return subprocess.run([sys.executable, "-I", "-S", "-c", code, *args], cwd=cwd or release, env=environment,
                          capture_output=True, text=True, timeout=timeout)


def grade_in_release(release: Path, jobs: list[tuple[Path, list[str]]], tmp: Path) -> list[list[list]]:
    """[(modules folder, exercises or [])] -> per job, rows (exercise, name, status, points, max, mistake, message)."""
    request, answer = tmp / "jobs.json", tmp / "results.json"
    request.write_text(json.dumps([[str(folder), list(exercises)] for folder, exercises in jobs]))
    done = isolated(release, GRADE, str(request), str(answer))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(answer.read_text())


def copy_modules(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for path in source.glob("*.py"):
        shutil.copyfile(path, target / path.name)
    return target


@pytest.fixture(scope="session")
def release(tmp_path_factory) -> Path:
    """``attnkit release <tmp>/student``, built once per run (by the worker running every test that uses it): the
    folder (``student.zip`` is beside it). The release tests and the nbgrader student-kernel test use it."""
    from attnkit.release import main

    out = tmp_path_factory.mktemp("release") / "student"
    assert main([str(out)]) == 0
    return out
