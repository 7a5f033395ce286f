"""Issue 22, done when: a class of 40 with 5 hostile hand-ins (a disk filler, a memory liar, an oracle caller, a zip
flood, an escape printer) grades the 35 others at full marks, as a class of those 35 alone does, in the same time
plus at most the hostile five's own time limits.

Small and fast: a course of the exercises the five attack (and what they build on), two workers.
"""
from __future__ import annotations

import json
import shutil
import time

import pytest

from tests.hostile import hostilekit as kit

pytestmark = pytest.mark.slow
HOSTILE = ("resources_disk_filler", "verdict_memory_hidden_hog", "verdict_oracle_caller", "malformed_zip_flood",
           "malformed_escape_printer")
COURSE = "softmax,masking,attention,positional,tiled_attention"
HONEST = 35
STUDENT_SECONDS = 20.0  # --student-timeout: the most one hand-in's calls may take


def honest_class(layout: kit.Layout) -> None:
    for index in range(HONEST):
        shutil.copytree(kit.SOLUTIONS, layout.submissions / f"student{index:02d}",
                        ignore=shutil.ignore_patterns("__pycache__"))


def timed(layout: kit.Layout) -> tuple[kit.Run, float]:
    start = time.monotonic()
    run = kit.grade(layout, "--exercises", COURSE, "--student-timeout", str(STUDENT_SECONDS))
    return run, time.monotonic() - start


def test_five_hostile_hand_ins_change_nothing_for_the_other_35():
    cases = {case.id: case for case in kit.load_cases() if case.id in HOSTILE}
    assert sorted(cases) == sorted(HOSTILE)
    alone, mixed = kit.Layout.make(), kit.Layout.make()
    try:
        honest_class(alone)
        honest_class(mixed)
        for case in cases.values():
            kit.build_case(case, mixed)
        clean, clean_seconds = timed(alone)
        run, seconds = timed(mixed)
        assert clean.status == 0 and run.status == 0, run.stderr[-3000:]
        assert run.strays == [] and "Traceback" not in run.stderr
        full = {ex: points for ex, points in kit.max_points().items() if ex in COURSE.split(",")}
        for index in range(HONEST):
            student = f"student{index:02d}"
            assert run.points(student) == pytest.approx(full), student
            assert run.record(student)["notes"] == [] and clean.gradescope(student) == run.gradescope(student)
        summary = json.loads((run.layout.out / "summary.json").read_text(encoding="utf-8"))
        assert summary["students"] == HONEST + len(HOSTILE) and summary["grader_errors"] == []
        for student in HOSTILE:  # each hostile hand-in lost points (or was refused)
            assert sum(run.points(student).values()) < sum(full.values()), student
        # the same time, give or take the five's own budgets (spread over the two workers) and start-up noise
        assert seconds <= clean_seconds + len(HOSTILE) * STUDENT_SECONDS / kit.JOBS + 10, (seconds, clean_seconds)
    finally:
        kit.remove(alone)
        kit.remove(mixed)
