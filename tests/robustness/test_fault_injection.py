"""Fault injection on ``attnkit grade``: SIGKILL to the whole run at seeded random points, then re-run.

Every interrupted output folder, once a re-run completes, must equal an uninterrupted run's byte for
byte (nothing in grades.csv, the Gradescope JSON, the records or the summary depends on time: check
timings are zeroed and sandbox paths removed before anything is written), hold no temporary file, and
leave nothing in the temp dir and no process behind. tests/grade/test_grade_resume.py has the single
kill and Ctrl-C cases; this is the many-points version.
"""
from __future__ import annotations

import csv
import io
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from grader.runner import discover
from tests.robustness.robustkit import (
    Reaper,
    build_class,
    differences,
    environment,
    grade_command,
    private_tmpdir,
    snapshot,
    temp_leftovers,
    tmp_files,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and prctl (Linux)")

TRIALS = 20            # kills (issue 7: at least 20)
SEED = 7
CHAIN = 0.5            # chance that the re-run after a kill is killed too (a kill while resuming)
RESUME_SCALE = 0.6     # kill delays of a resuming run, as a fraction of those of a fresh one
RUN_TIMEOUT = 300


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The class graded without interruption, with --jobs 1 and with --jobs 2."""
    root = tmp_path_factory.mktemp("faults")
    submissions = build_class(root / "class")
    outs, seconds = {}, {}
    with private_tmpdir() as tmpdir:
        for jobs in (1, 2):
            outs[jobs] = root / f"reference-jobs{jobs}"
            start = time.monotonic()
            result = subprocess.run(grade_command(submissions, outs[jobs], jobs), cwd=root, env=environment(tmpdir),
                                    capture_output=True, text=True, timeout=RUN_TIMEOUT)
            seconds[jobs] = time.monotonic() - start
            assert result.returncode == 0, result.stderr
            assert temp_leftovers(tmpdir) == []
    return {"submissions": submissions, "outs": outs, "seconds": seconds, "students": 8}


def test_reference_grades_are_meaningful(uninterrupted):
    """The comparison below is only as good as the reference: full marks, zeros and partial scores."""
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(
        (uninterrupted["outs"][2] / "grades.csv").read_text()))}
    assert len(rows) == uninterrupted["students"]
    full = rows["ref_folder"]["max_score"]
    assert rows["ref_folder"]["score"] == rows["ref_nested"]["score"] == rows["ref_zip"]["score"] == full
    assert rows["stubs"]["score"] == "0"
    for student, exercise in (("wrong_axis", "softmax"), ("no_scale", "attention"), ("half_done", "multihead"),
                              ("syntax_error", "masking")):
        assert 0 < float(rows[student]["score"]) < float(full), student
        most = sum(spec.points for spec in discover(exercise))
        assert float(rows[student][exercise]) < most, (student, rows[student])
    for student, exercise in (("wrong_axis", "softmax"), ("half_done", "multihead"), ("syntax_error", "masking")):
        assert rows[student][exercise] == "0", (student, rows[student])
    # no_scale's mistake is in scaled_dot_product_attention: under attnkit grade self_attention calls the reference's
    # in its place, so its own checks score
    assert rows["no_scale"]["attention"] != "0", rows["no_scale"]


def test_jobs_1_and_jobs_2_give_identical_files(uninterrupted):
    """Determinism (issue 7, part 4) on a class with classic mistakes: every file, records included."""
    one, two = (snapshot(uninterrupted["outs"][jobs]) for jobs in (1, 2))
    assert differences(one, two) == []
    assert {"grades.csv", "summary.json", "summary.txt", "ref_zip.json", ".attnkit/ref_zip.json"} <= set(one)


def _phase(out, students: int) -> str:
    records = len(list((out / ".attnkit").glob("*.json"))) if (out / ".attnkit").is_dir() else 0
    if (out / "summary.txt").exists():
        return "after the class files"
    if records == students:
        return "all records, class files pending"
    return "grading" if records else "before any result"


@pytest.mark.slow
def test_kill_9_at_random_points_then_rerun(uninterrupted, tmp_path):
    submissions, students = uninterrupted["submissions"], uninterrupted["students"]
    expected = snapshot(uninterrupted["outs"][2])
    scale = 0.9 * min(uninterrupted["seconds"].values())  # kills land anywhere from start-up to the last write
    rng = random.Random(SEED)
    reaper = Reaper()
    landed: Counter = Counter()
    kills = completions = 0
    out = None
    with private_tmpdir() as tmpdir, reaper():
        env = environment(tmpdir)
        for _attempt in range(4 * TRIALS):  # a run that ends before its kill is not a trial
            if kills == TRIALS:
                break
            if out is None:
                out = tmp_path / f"out{completions:02d}"
            resuming = out.exists()  # a resume skips the graded students: it is over sooner
            jobs, delay = rng.choice((1, 2)), rng.uniform(0.0, scale * (RESUME_SCALE if resuming else 1.0))
            trial = f"kill {kills + 1} (jobs {jobs}, after {delay:.2f} s, into {out.name})"
            process = subprocess.Popen(grade_command(submissions, out, jobs), cwd=tmp_path, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            try:
                process.wait(timeout=delay)
                landed["too late: the run had finished"] += 1  # not counted as a kill
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # the command, its forkserver and workers: a power cut
                process.wait()
                landed[_phase(out, students) if out.exists() else "before the output folder"] += 1
                kills += 1
            assert reaper.settle() == [], f"{trial}: processes outlived the kill"
            if kills < TRIALS and rng.random() < CHAIN:
                continue  # the next run resumes this folder and is killed in turn
            result = subprocess.run(grade_command(submissions, out, 2), cwd=tmp_path, env=env,
                                    capture_output=True, text=True, timeout=RUN_TIMEOUT)
            assert result.returncode == 0, f"{trial}: the re-run failed:\n{result.stderr}"
            assert "Traceback" not in result.stderr
            assert reaper.settle() == [], f"{trial}: the re-run left processes behind"
            assert differences(snapshot(out), expected) == [], trial
            assert tmp_files(out) == [], trial
            assert temp_leftovers(tmpdir) == [], f"{trial}: left in the temp dir"
            completions += 1
            out = None
    assert kills == TRIALS, f"only {kills} of {TRIALS} runs were still going when their kill came: {dict(landed)}"
    assert reaper.strays == []
    print(f"\n{kills} kills, {completions} re-runs compared; runs ended: {dict(landed)}")
