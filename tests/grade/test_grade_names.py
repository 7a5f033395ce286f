"""Issue 22 item 9: any entry name is graded under a bounded, reversible file name; none stops the run."""
from __future__ import annotations

import csv
import json
import os

from attnkit.grade import records
from tests.grade.gradekit import REPO, copy_modules, run_cli

SOLUTIONS = REPO / "solutions"


def test_file_stems_are_bounded_distinct_and_plain_names_stay():
    assert records.file_stem("alice") == "alice" and records.file_stem("a.b-c_d@e+f") == "a.b-c_d@e+f"
    assert records.file_stem("Summary") == "~Summary" and records.file_stem("grades") == "~grades"
    assert records.file_stem("ann lee") == "~ann%20lee" and records.file_stem("~x") == "~%7Ex"
    long = "n" * 251
    assert len(records.file_stem(long).encode()) <= records.MAX_STEM
    assert records.file_stem(long) != records.file_stem("n" * 250)
    assert records.file_stem("\udcff") == "~%FF"


def test_any_entry_name_is_graded(tmp_path):
    names = ["Summary", "n" * 251, os.fsdecode(b"caf\xe9"), "ordinary"]
    for name in names:
        copy_modules(SOLUTIONS, tmp_path / "class" / name)
    out = tmp_path / "out"
    done = run_cli(str(tmp_path / "class"), "--out", str(out), "--exercises", "softmax", "--no-progress",
                   "--jobs", "2", timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    text = (out / "grades.csv").read_bytes().decode("utf-8")  # valid UTF-8 whatever the names' bytes
    rows = {row["student"]: row for row in csv.DictReader(text.splitlines())}
    assert set(rows) == {"Summary", "n" * 251, "caf\\xe9", "ordinary"}
    assert all(float(row["score"]) == float(row["max_score"]) for row in rows.values())
    assert json.loads((out / "summary.json").read_text())["graded"] == 4  # still the class's summary
    for student in rows:
        record = json.loads(records.record_path(out, student).read_text(encoding="utf-8"))
        assert record["student"] == student and records.gradescope_path(out, student).is_file()
