"""Resumable and atomic: re-runs skip what is up to date; kill -9 then re-run gives the same grades."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from attnkit.grade import main, records, scratch
from tests.grade.gradekit import REPO, build_class, run_cli
from tests.robustness.robustkit import private_tmpdir

pytestmark = pytest.mark.slow
CLASS = 6  # build_class's students


def graded_copy(graded, tmp_path):
    """The class and its output folder as the session's ``graded`` run left them (jobs 2, timeout 2): what
    ``grade(class_dir, out, jobs=2)`` writes, without grading the class again."""
    assert graded["status"] == 0, graded["stderr"]
    shutil.copytree(graded["submissions"], tmp_path / "class", symlinks=True)
    shutil.copytree(graded["out"], tmp_path / "out")
    return tmp_path / "class", tmp_path / "out"


def grade(root, out, **kw):
    with open(os.devnull, "w") as null:
        return main(root, out, timeout=2, progress=False, stdout=null, stderr=null, pictures=False, **kw)


def test_rerun_skips_up_to_date_and_regrades_changes(tmp_path, graded, monkeypatch):
    class_dir, out = graded_copy(graded, tmp_path)
    marks = {p.name: p.stat().st_mtime_ns for p in (out / ".attnkit").glob("*.json")}
    grades = (out / "grades.csv").read_text()
    result = run_cli(str(class_dir), "--out", str(out), "--timeout", "2")
    assert result.returncode == 0, result.stderr
    assert "6 of 6 submissions up to date" in result.stderr and "[1/" not in result.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (out / ".attnkit").glob("*.json")} == marks
    assert (out / "grades.csv").read_text() == grades
    # a changed submission is graded again, and only that one
    with open(class_dir / "alice" / "softmax.py", "a") as handle:
        handle.write("\n# edited\n")
    result = run_cli(str(class_dir), "--out", str(out), "--timeout", "2", "--jobs", "1")
    assert "5 of 6 submissions up to date" in result.stderr and "[1/1] alice" in result.stderr
    changed = {p.name for p in (out / ".attnkit").glob("*.json") if p.stat().st_mtime_ns != marks[p.name]}
    assert changed == {"alice.json"}
    # a new grader version regrades everyone
    monkeypatch.setattr(records, "grader_version", lambda: "0-test")
    assert grade(class_dir, out, jobs=2) == 0
    assert all(p.stat().st_mtime_ns != marks[p.name] for p in (out / ".attnkit").glob("*.json"))


def test_half_written_record_is_regraded(tmp_path, graded):
    class_dir, out = graded_copy(graded, tmp_path)
    (out / ".attnkit" / "bob.json").write_text('{"student": "bob", "submission')  # torn (not our writer)
    (out / ".attnkit" / ".carol.json.x.tmp").write_text("left by a crash")
    (out / "frank.json").unlink()
    before = (out / "grades.csv").read_text()
    assert grade(class_dir, out, jobs=1) == 0
    assert (out / "grades.csv").read_text() == before
    assert list(out.rglob("*.tmp")) == []


def test_kill_9_then_rerun_matches_uninterrupted(tmp_path, graded):
    """Killed as soon as its first result appears (jobs 1: the other five students take far longer), the run is
    interrupted; the re-run grades the rest, writes what an uninterrupted run writes, and removes the temporary
    folder the killed run left. Both runs have a TMPDIR of their own: what is left there is theirs (a test that
    removed leftovers from the shared temp dir would remove the folders of runs living beside it)."""
    root, reference = graded["submissions"], graded["out"]
    assert graded["status"] == 0, graded["stderr"]

    out = tmp_path / "out"
    with private_tmpdir() as tmpdir:
        process = subprocess.Popen([sys.executable, "-m", "attnkit.grade", str(root), "--out", str(out), "--jobs",
                                    "1", "--timeout", "2", "--no-pictures"], cwd=REPO, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True,
                                   env=dict(os.environ, TMPDIR=str(tmpdir)))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not list((out / ".attnkit").glob("*.json")):
            time.sleep(0.005)
        os.killpg(process.pid, signal.SIGKILL)  # the command, its forkserver and workers: a power cut
        process.wait()
        assert list((out / ".attnkit").glob("*.json")), "no result appeared before the kill"
        interrupted = not (out / "grades.csv").exists()
        left = list(tmpdir.glob(f"{scratch.PREFIX}{process.pid}-*"))
        assert left or not interrupted, "the killed run left no temporary folder"
        deadline = time.monotonic() + 10  # the zygotes see their control socket close and exit
        while time.monotonic() < deadline and not all(scratch.abandoned(folder) for folder in left):
            time.sleep(0.05)
        result = run_cli(str(root), "--out", str(out), "--timeout", "2", "--no-pictures", tmpdir=tmpdir)
        assert result.returncode == 0, result.stderr
        assert os.listdir(tmpdir) == []  # the killed run's folder swept, the re-run's own removed
    if interrupted:
        assert "up to date" in result.stderr
    assert (out / "grades.csv").read_text() == (reference / "grades.csv").read_text()
    for path in reference.glob("*.json"):
        assert (out / path.name).read_bytes() == path.read_bytes()
    assert list(out.rglob("*.tmp")) == []


def test_ctrl_c_stops_keeps_results_and_says_how_to_resume(tmp_path):
    root = build_class(tmp_path / "class")
    out = tmp_path / "out"
    with private_tmpdir() as tmpdir:  # its own TMPDIR: no other test's clean-up can reach its folders
        process = subprocess.Popen([sys.executable, "-m", "attnkit.grade", str(root), "--out", str(out), "--jobs",
                                    "2", "--timeout", "2", "--no-pictures"], cwd=REPO, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE,
                                   text=True, start_new_session=True, env=dict(os.environ, TMPDIR=str(tmpdir)),
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not list((out / ".attnkit").glob("*.json")):
            time.sleep(0.005)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
        stdout, stderr = process.communicate(timeout=30)
        kept = {p.name: p.stat().st_mtime_ns for p in (out / ".attnkit").glob("*.json")}
        if process.returncode == 130:
            assert "Run the same command again" in stderr and "Traceback" not in stderr
            assert not (out / "grades.csv").exists()
        else:  # it finished before the signal arrived
            assert process.returncode == 0, stderr
        assert list(out.rglob("*.tmp")) == []
        result = run_cli(str(root), "--out", str(out), "--timeout", "2", "--no-pictures", tmpdir=tmpdir)
        assert result.returncode == 0, result.stderr
        assert os.listdir(tmpdir) == []
    assert f"{len(kept)} of {CLASS} submissions up to date" in result.stderr or len(kept) == CLASS
    assert all((out / ".attnkit" / name).stat().st_mtime_ns == mtime for name, mtime in kept.items())
    assert len((out / "grades.csv").read_text().splitlines()) == CLASS + 1
