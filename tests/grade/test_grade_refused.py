"""One rule for refused hand-ins (listed, never averaged), said once, with what to do; a student with two
hand-ins is told which one was graded."""
from __future__ import annotations

import csv
import json
import zipfile

from attnkit.grade import main
from attnkit.grade.submissions import MAX_ENTRIES
from grader import curriculum
from tests.grade.gradekit import EXERCISES, SOLUTIONS, copy_modules, zip_modules


def test_refused_and_duplicate_hand_ins(tmp_path):
    klass = tmp_path / "class"
    copy_modules(SOLUTIONS, klass / "alice")
    copy_modules(EXERCISES, klass / "grace")                       # graded: the folder comes first
    zip_modules(SOLUTIONS, klass / "grace.zip")                     # ignored, and said so
    with zipfile.ZipFile(klass / "bob.zip", "w") as zipped:         # the whole folder, .venv and all: refused
        for index in range(MAX_ENTRIES + 1):
            zipped.writestr(f".venv/lib/file{index}.py", "")
    out = tmp_path / "out"
    with open(tmp_path / "stdout", "w") as stdout, open(tmp_path / "stderr", "w") as stderr:
        assert main(klass, out, jobs=1, timeout=5, progress=False, stdout=stdout, stderr=stderr) == 0
    total = curriculum.total_points()
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["students"], summary["graded"], summary["refused"]) == (3, 2, 1)
    assert summary["mean_score"] == total / 2  # alice full, grace 0; bob listed, not averaged
    assert all(row["full_marks"] == 1 for row in summary["exercises"])
    text = (out / "summary.txt").read_text()
    assert text.startswith("2 of 3 submissions graded (1 refused: listed below, not in the figures); "
                           f"mean {total / 2:.1f}/{total:g}")
    assert "refused: refused" not in text
    # counted from the zip's end records, before its directory is parsed (attnkit/grade/zipindex.py)
    assert f"  bob: refused: the zip lists {MAX_ENTRIES + 1} entries in a " in text
    assert f"(at most {MAX_ENTRIES} entries, " in text
    assert "  grace: handed in twice: graded grace/; ignored grace.zip" in text
    rows = {row["student"]: row for row in csv.DictReader((out / "grades.csv").open())}
    assert rows["grace"]["note"] == "graded grace/; ignored grace.zip" and rows["grace"]["score"] == "0"
    assert rows["bob"]["note"].startswith("refused: the zip lists") and rows["bob"]["score"] == "0"
    assert rows["alice"]["note"] == ""
    bob = json.loads((out / "bob.json").read_text())
    assert bob["output"].startswith("refused: the zip lists") and "attnkit pack" in bob["output"]
    assert "refused: refused" not in json.dumps(bob)
