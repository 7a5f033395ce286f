"""Fault injection on ``attnkit grade``: SIGKILL to the whole run at seeded random points, then re-run.

Every interrupted output folder, once a re-run completes, must equal an uninterrupted run's byte for
byte (nothing in grades.csv, the Gradescope JSON, the records or the summary depends on time: check
timings are zeroed and sandbox paths removed before anything is written), hold no temporary file, and
leave nothing in the temp dir and no process behind. tests/grade/test_grade_resume.py has the single
kill and Ctrl-C cases; this is the many-points version.

The class is graded on a course of four exercises (the ones its mistakes are in): what a kill can break is
the run's writes (records, class files, temporary files) and its resume, the same whatever the course; a
short run makes each of the many kills cheap. Kills are aimed, in turn, at each phase of a run: start-up
(before the run's first result), between two results, and the class files (after the last result); the
point inside the phase is drawn at random, from the phase's length in the uninterrupted run.
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
COURSE = ("softmax", "masking", "attention", "multihead")  # every exercise the class's mistakes are in
PHASES = ("start-up", "between two results", "class files")
RUN_TIMEOUT = 300
POLL = 0.002           # seconds between two looks at the output folder of a run to be killed


def command(submissions, out, jobs: int) -> list[str]:
    return grade_command(submissions, out, jobs, "--exercises", ",".join(COURSE))


def records(out) -> int:
    folder = out / ".attnkit"
    return len(list(folder.glob("*.json"))) if folder.is_dir() else 0


def wait_for_records(process, out, count: int, deadline: float) -> bool:
    """Wait until ``out`` holds ``count`` records (True) or the run has ended (False)."""
    while records(out) < count:
        if process.poll() is not None:
            return False
        assert time.monotonic() < deadline, f"no {count} records within {RUN_TIMEOUT} s"
        time.sleep(POLL)
    return True


def timed_run(cmd, cwd, env, out) -> dict:
    """Run to the end; when the first and the last record appeared, and when it exited (seconds from start)."""
    start, seen = time.monotonic(), {"count": 0}
    log = out.with_name(f"{out.name}.stderr")
    with open(log, "w") as stderr:
        process = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        while process.poll() is None:
            count, now = records(out), time.monotonic() - start
            if count > seen["count"]:
                seen.setdefault("first", now)
                seen.update(last=now, count=count)
            assert now < RUN_TIMEOUT, "the uninterrupted run hangs"
            time.sleep(POLL)
    assert process.returncode == 0, log.read_text()
    return {"first": seen["first"], "last": seen["last"], "end": time.monotonic() - start}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The class graded without interruption, with --jobs 1 and with --jobs 2 (with the times of the latter's
    phases)."""
    root = tmp_path_factory.mktemp("faults")
    submissions = build_class(root / "class")
    outs, times = {}, {}
    with private_tmpdir() as tmpdir:
        for jobs in (1, 2):
            outs[jobs] = root / f"reference-jobs{jobs}"
            times[jobs] = timed_run(command(submissions, outs[jobs], jobs), root, environment(tmpdir), outs[jobs])
            assert temp_leftovers(tmpdir) == []
    return {"submissions": submissions, "outs": outs, "times": times[2], "students": 8}


def test_reference_grades_are_meaningful(uninterrupted):
    """The comparison below is only as good as the reference: full marks, zeros and partial scores."""
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(
        (uninterrupted["outs"][2] / "grades.csv").read_text()))}
    assert len(rows) == uninterrupted["students"]
    full = rows["ref_folder"]["max_score"]
    assert float(full) == sum(spec.points for exercise in COURSE for spec in discover(exercise))
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
    """Determinism (issue 7, part 4) on a class with classic mistakes: every file, records included (the whole
    course with --jobs 1 and 2: tests/grade/test_grade_cli.py)."""
    one, two = (snapshot(uninterrupted["outs"][jobs]) for jobs in (1, 2))
    assert differences(one, two) == []
    assert {"grades.csv", "summary.json", "summary.txt", "ref_zip.json", ".attnkit/ref_zip.json"} <= set(one)


def landed(out, students: int, before: int) -> str:
    """Where a kill landed, ``before`` being the records the run started with."""
    if not out.exists():
        return "before the output folder"
    if (out / "summary.txt").exists():
        return "after the class files"
    count = records(out)
    if count == students:
        return "all records, class files pending"
    return "between two results" if count > before else "before the run's first result"


def aim(rng: random.Random, phase: str, before: int, students: int, times: dict) -> tuple[int, float]:
    """(records to wait for, then seconds to wait) for a kill in ``phase`` of a run that starts with ``before``
    records; the seconds drawn from the phase's length in the uninterrupted run."""
    if phase == "start-up":
        return 0, rng.uniform(0.0, times["first"])
    if phase == "between two results":
        gap = (times["last"] - times["first"]) / (students - 1)
        return rng.randint(before + 1, students - 1), rng.uniform(0.0, gap)
    return students, rng.uniform(0.0, times["end"] - times["last"])


@pytest.mark.slow
def test_kill_9_at_random_points_then_rerun(uninterrupted, tmp_path):
    submissions, students, times = uninterrupted["submissions"], uninterrupted["students"], uninterrupted["times"]
    expected = snapshot(uninterrupted["outs"][2])
    rng = random.Random(SEED)
    reaper = Reaper()
    where: Counter = Counter()
    aimed: Counter = Counter()
    kills = completions = 0
    out = None
    with private_tmpdir() as tmpdir, reaper():
        env = environment(tmpdir)
        for attempt in range(4 * TRIALS):  # a run that ends before its kill is not a trial
            if kills == TRIALS:
                break
            if out is None:
                out = tmp_path / f"out{completions:02d}"
            before = records(out)
            phases = [p for p in PHASES if p != "between two results" or before < students - 1]
            phase = phases[attempt % len(phases)]
            jobs = rng.choice((1, 2))
            wait, delay = aim(rng, phase, before, students, times)
            trial = f"kill {kills + 1} (jobs {jobs}, {delay:.2f} s after record {wait}, into {out.name})"
            process = subprocess.Popen(command(submissions, out, jobs), cwd=tmp_path, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            ended = not wait_for_records(process, out, wait, time.monotonic() + RUN_TIMEOUT)
            if not ended:
                try:
                    process.wait(timeout=delay)
                    ended = True
                except subprocess.TimeoutExpired:
                    pass
            if ended:
                where["too late: the run had finished"] += 1  # not counted as a kill
            else:
                os.killpg(process.pid, signal.SIGKILL)  # the command, its forkserver and workers: a power cut
                process.wait()
                where[landed(out, students, before)] += 1
                aimed[phase] += 1
                kills += 1
            assert reaper.settle() == [], f"{trial}: processes outlived the kill"
            if kills < TRIALS and rng.random() < CHAIN:
                continue  # the next run resumes this folder and is killed in turn
            result = subprocess.run(command(submissions, out, 2), cwd=tmp_path, env=env,
                                    capture_output=True, text=True, timeout=RUN_TIMEOUT)
            assert result.returncode == 0, f"{trial}: the re-run failed:\n{result.stderr}"
            assert "Traceback" not in result.stderr
            assert reaper.settle() == [], f"{trial}: the re-run left processes behind"
            assert differences(snapshot(out), expected) == [], trial
            assert tmp_files(out) == [], trial
            assert temp_leftovers(tmpdir) == [], f"{trial}: left in the temp dir"
            completions += 1
            out = None
    assert kills == TRIALS, f"only {kills} of {TRIALS} runs were still going when their kill came: {dict(where)}"
    assert reaper.strays == []
    assert set(aimed) == set(PHASES), f"a phase was never killed: {dict(aimed)}"
    assert where["between two results"] and where["all records, class files pending"], dict(where)
    print(f"\n{kills} kills ({dict(aimed)}), {completions} re-runs compared; runs ended: {dict(where)}")
