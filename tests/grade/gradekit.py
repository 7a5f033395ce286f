"""Fixtures for the ``attnkit grade`` tests: a class folder built from solutions/ and exercises/."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"


def copy_modules(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for path in sorted(source.glob("*.py")):
        shutil.copyfile(path, target / path.name)
    return target


def zip_modules(source: Path, archive: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(source.glob("*.py")):
            zipped.write(path, prefix + path.name)
    return archive


def build_class(root: Path) -> Path:
    """alice (solutions), bob (stubs), carol (syntax error in softmax), dave.zip (solutions),
    eve (a symlink to a solution file), frank (solutions under exercises/)."""
    root.mkdir(parents=True)
    copy_modules(SOLUTIONS, root / "alice")
    copy_modules(EXERCISES, root / "bob")
    carol = copy_modules(SOLUTIONS, root / "carol" / "exercises")
    with open(carol / "softmax.py", "a") as handle:
        handle.write("\ndef broken(:\n")
    zip_modules(SOLUTIONS, root / "dave.zip", prefix="submission/exercises/")
    eve = copy_modules(SOLUTIONS, root / "eve")
    (eve / "masking.py").unlink()
    (eve / "masking.py").symlink_to(SOLUTIONS / "masking.py")
    copy_modules(SOLUTIONS, root / "frank" / "exercises")
    (root / ".DS_Store").write_text("hidden files are ignored")
    return root


@pytest.fixture
def class_dir(tmp_path) -> Path:
    return build_class(tmp_path / "class")


@pytest.fixture(scope="session")
def graded(tmp_path_factory):
    """One grading of the standard class (jobs 2), shared by the read-only tests."""
    from attnkit.grade import main

    root = tmp_path_factory.mktemp("graded")
    submissions = build_class(root / "class")
    out = root / "out"
    log = root / "stdout.txt"
    with open(log, "w") as stdout, open(root / "stderr.txt", "w") as stderr:
        status = main(submissions, out, jobs=2, timeout=2, progress=False, stdout=stdout, stderr=stderr)
    return {"status": status, "out": out, "submissions": submissions,
            "stdout": log.read_text(), "stderr": (root / "stderr.txt").read_text()}


def max_points() -> dict[str, float]:
    from grader import curriculum
    from grader.runner import discover

    return {ex: sum(spec.points for spec in discover(ex)) for ex in curriculum.ids()}


def fmt(value: float) -> str:
    value = round(float(value), 6)
    return str(int(value)) if value.is_integer() else repr(value)


def run_cli(*args: str, timeout: float = 60, tmpdir: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m attnkit.grade *args``; with ``tmpdir``, that is its TMPDIR."""
    env = dict(os.environ, **({"TMPDIR": str(tmpdir)} if tmpdir else {}))
    return subprocess.run([sys.executable, "-m", "attnkit.grade", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO, env=env)
