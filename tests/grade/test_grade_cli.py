"""``attnkit grade``: grades.csv, Gradescope JSON, summary, progress, user errors, determinism."""
from __future__ import annotations

import csv
import json
import os

import pytest

from attnkit.grade import main
from grader import curriculum
from tests.grade.gradekit import fmt, max_points, run_cli

FULL = {"alice", "dave", "frank"}
ZERO = {"bob"}


def full_marks(out) -> tuple[dict[str, float], float]:
    """Per-exercise score of a correct submission: every check's points, less any check the reference
    solutions do not pass yet (the checks are another work item; their correctness is not tested here)."""
    maxima = max_points()
    record = json.loads((out / ".attnkit" / "alice.json").read_text())
    for exercise in record["exercises"]:
        for check in exercise["checks"]:
            if check["status"] != "passed":
                maxima[exercise["exercise"]] -= check["max_points"]
    return maxima, sum(maxima.values())


def test_grades_csv_exact(graded):
    assert graded["status"] == 0, graded["stderr"]
    maxima, _ = full_marks(graded["out"])
    total = sum(max_points().values())
    lines = (graded["out"] / "grades.csv").read_text().splitlines()
    assert lines[0] == ",".join(["student", "score", "max_score", *curriculum.ids(), "note"])
    assert lines[0].split(",")[3:10] == ["softmax", "masking", "attention", "multihead", "positional", "kv_cache",
                                         "tiled_attention"]
    rows = {line.split(",")[0]: line for line in lines[1:]}
    assert [line.split(",")[0] for line in lines[1:]] == ["alice", "bob", "carol", "dave", "eve", "frank"]
    for student in FULL:
        assert rows[student] == ",".join([student, fmt(sum(maxima.values())), fmt(total),
                                          *(fmt(maxima[e]) for e in curriculum.ids()), ""])
    for student in ZERO:
        assert rows[student] == ",".join([student, "0", fmt(total), *("0" for _ in curriculum.ids()), ""])
    carol = next(csv.DictReader(lines))  # header check via DictReader too
    assert set(carol) == {"student", "score", "max_score", *curriculum.ids(), "note"}
    carol = {r["student"]: r for r in csv.DictReader(lines)}["carol"]
    assert carol["softmax"] == "0" and carol["masking"] == fmt(maxima["masking"])
    assert float(carol["score"]) < total
    eve = {r["student"]: r for r in csv.DictReader(lines)}["eve"]  # masking.py, a symlink, was left out
    assert eve["masking"] == "0" and eve["softmax"] == fmt(maxima["softmax"]) and 0 < float(eve["score"]) < total


def _check_gradescope(data: dict) -> None:
    assert set(data) >= {"score", "tests", "output", "visibility"}
    assert isinstance(data["score"], (int, float)) and isinstance(data["output"], str)
    assert data["visibility"] in {"visible", "hidden", "after_due_date", "after_published"}
    assert isinstance(data["tests"], list) and data["tests"]
    for test in data["tests"]:
        assert set(test) >= {"name", "score", "max_score", "output", "visibility"}
        assert isinstance(test["name"], str) and test["name"]
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"]
        assert isinstance(test["output"], str)
        assert test["visibility"] in {"visible", "hidden", "after_due_date", "after_published"}
        assert isinstance(test.get("number", ""), str) and isinstance(test.get("tags", []), list)
    assert abs(sum(t["score"] for t in data["tests"]) - data["score"]) < 1e-6


def test_gradescope_json_shape(graded):
    total = sum(max_points().values())
    full = full_marks(graded["out"])[1]
    for student in FULL | ZERO | {"carol"}:
        data = json.loads((graded["out"] / f"{student}.json").read_text())
        _check_gradescope(data)
        assert abs(sum(t["max_score"] for t in data["tests"]) - total) < 1e-6
        expected = full if student in FULL else 0
        if student in FULL | ZERO:
            assert data["score"] == pytest.approx(expected)
    eve = json.loads((graded["out"] / "eve.json").read_text())
    assert "left out of your hand-in: masking.py (a symbolic link, not a file)" in eve["output"]
    assert "missing from your hand-in: masking.py" in eve["output"]
    carol = json.loads((graded["out"] / "carol.json").read_text())
    assert any("SyntaxError" in t["output"] for t in carol["tests"] if t["name"].startswith("softmax"))


def test_records_and_summary(graded):
    out = graded["out"]
    record = json.loads((out / ".attnkit" / "eve.json").read_text())
    assert record["notes"][0] == {"kind": "skipped", "detail": "masking.py (a symbolic link, not a file)"}
    assert not record["problem"] and len(record["submission_hash"]) == 64
    assert record["grader_version"].startswith(__import__("attnkit").__version__)
    assert all(c["seconds"] == 0 for e in record["exercises"] for c in e["checks"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["students"] == summary["graded"] == 6
    assert [row["exercise"] for row in summary["exercises"]] == list(curriculum.ids())
    maxima, full = max_points(), full_marks(out)[0]
    for row in summary["exercises"]:
        ex = row["exercise"]
        assert row["max_score"] == pytest.approx(maxima[ex])
        assert 0 <= row["mean"] <= row["max_score"]
    assert summary["exercises"][1]["mean"] == pytest.approx(full["masking"] * 4 / 6)  # carol keeps masking
    assert [(p["student"], p["kind"]) for p in summary["problems"]] == [
        ("carol", "import_error"), ("eve", "skipped"), ("eve", "missing_module")]
    assert summary["warnings"] == []
    text = (out / "summary.txt").read_text()
    assert text in graded["stdout"] and "eve: skipped: masking.py" in text and "carol: import error: softmax.py" in text
    assert "[6/6]" in graded["stderr"] and "bob 0/" in graded["stderr"]


def test_mistakes_counted_once_per_student(tmp_path):
    """A softmax over the wrong axis is diagnosed (by name) in the summary with a student count."""
    from tests.grade.gradekit import SOLUTIONS, copy_modules

    root = tmp_path / "class"
    for name in ("ann", "ben"):
        folder = copy_modules(SOLUTIONS, root / name)
        source = (folder / "softmax.py").read_text()
        wrong_axis = source.replace("def softmax(x, axis=-1):", "def softmax(x, axis=-1):\n    axis = 0")
        (folder / "softmax.py").write_text(wrong_axis)
    out = tmp_path / "out"
    assert main(root, out, jobs=1, timeout=2, progress=False, stdout=open(os.devnull, "w"),
                stderr=open(os.devnull, "w")) == 0
    found = {}
    for name in ("ann", "ben"):
        record = json.loads((out / ".attnkit" / f"{name}.json").read_text())
        found[name] = {(c["exercise"], c["mistake"]) for e in record["exercises"] for c in e["checks"] if c["mistake"]}
    summary = json.loads((out / "summary.json").read_text())
    listed = {(m["exercise"], m["mistake"]): m["students"] for m in summary["mistakes"]}
    assert found["ann"], "a softmax over the wrong axis should be diagnosed"
    for key in found["ann"]:
        assert listed[key] == 2


def test_jobs_1_and_2_identical(tmp_path, graded):
    out = tmp_path / "out1"
    status = main(graded["submissions"], out, jobs=1, timeout=2, progress=False, stdout=open(os.devnull, "w"),
                  stderr=open(os.devnull, "w"))
    assert status == 0
    for path in sorted(graded["out"].rglob("*")):
        if path.is_file():
            relative = path.relative_to(graded["out"])
            assert (out / relative).read_bytes() == path.read_bytes(), relative
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == sorted(p.relative_to(graded["out"])
                                                                       for p in graded["out"].rglob("*"))


def test_missing_submissions_is_a_clear_user_error(tmp_path):
    result = run_cli(str(tmp_path / "nope"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr
    assert str(tmp_path / "nope") in result.stderr and "no such folder" in result.stderr
    assert not (tmp_path / "out").exists()


def test_empty_submissions_is_a_user_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / ".hidden").write_text("x")
    assert main(tmp_path / "empty", tmp_path / "out") == 2
    assert "holds no submissions" in capsys.readouterr().err


def test_unwritable_outdir_exit_2_nothing_graded(tmp_path, class_dir):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_cli(str(class_dir), "--out", str(blocker / "out"), "--timeout", "2")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and str(blocker / "out") in result.stderr
    assert "cannot write to output folder" in result.stderr and result.stdout == ""
    if os.geteuid() != 0:  # root ignores permission bits
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        result = run_cli(str(class_dir), "--out", str(locked / "out"))
        assert result.returncode == 2 and "cannot write" in result.stderr


def test_reserved_student_name(tmp_path):
    """A student named like a class file is graded under a file name of its own (issue 22 item 9)."""
    from tests.grade.gradekit import SOLUTIONS, copy_modules

    copy_modules(SOLUTIONS, tmp_path / "class" / "summary")
    assert main(tmp_path / "class", tmp_path / "out", jobs=1, exercises=("softmax",), progress=False) == 0
    assert json.loads((tmp_path / "out" / "~summary.json").read_text())["score"] > 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["graded"] == 1


SLOW_EVERYWHERE = """

import time as _time
for _name, _value in list(globals().items()):
    if callable(_value) and not _name.startswith("_") and getattr(_value, "__module__", None) == __name__:
        def _slow(*args, _value=_value, **kwargs):
            _time.sleep(0.9)
            return _value(*args, **kwargs)
        globals()[_name] = _slow
"""


def test_student_time_budget(tmp_path):
    """Every call 0.9 s (under --timeout 1): the submission stops at --student-timeout, the rest fails as too slow."""
    import time

    from tests.grade.gradekit import SOLUTIONS, copy_modules

    folder = copy_modules(SOLUTIONS, tmp_path / "class" / "slowpoke")
    for module in folder.glob("*.py"):
        module.write_text(module.read_text() + SLOW_EVERYWHERE)
    start = time.monotonic()
    with open(os.devnull, "w") as null:
        assert main(tmp_path / "class", tmp_path / "out", jobs=1, timeout=1, student_timeout=4, progress=False,
                    stdout=null, stderr=null) == 0
    assert time.monotonic() - start < 20  # 4 s of calls, plus start-up and a child per exercise
    record = json.loads((tmp_path / "out" / ".attnkit" / "slowpoke.json").read_text())
    assert {"kind": "too_slow", "detail": "softmax: the time for exercise softmax (3 s) ran out"} in record["notes"]
    assert any("whole submission (4 s)" in note["detail"] for note in record["notes"])
    messages = [c["message"] for e in record["exercises"] for c in e["checks"]]
    assert sum("your code was too slow" in message for message in messages) > len(messages) // 2
    bad = run_cli(str(tmp_path / "class"), "--out", str(tmp_path / "out2"), "--student-timeout", "0")
    assert bad.returncode == 2 and "--student-timeout must be a number of seconds above 0" in bad.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="children drop to nobody only when the grader is root")
def test_unreadable_stdlib_without_a_copy_is_refused_before_grading(class_dir, tmp_path, monkeypatch, capsys):
    from grader.sandbox.host import preflight

    def no_room(base=None):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(preflight, "readable_stdlib", no_room)
    assert main(class_dir, tmp_path / "out", jobs=1, timeout=2, progress=False) == 2
    error = capsys.readouterr().err
    assert "cannot read the standard library" in error and "No space left on device" in error
    assert "nothing was graded" in error and not (tmp_path / "out" / "grades.csv").exists()


def test_line_progress_names_a_slow_student(monkeypatch):
    import io

    from attnkit.grade import progress

    stream, now = io.StringIO(), [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    shown = progress.LineProgress(2, stream)
    shown.grading("alice")
    shown.tick()
    now[0] += progress.SLOW_SECONDS
    shown.tick()
    shown.tick()  # named once
    shown.advance("alice", 1, 2)
    assert stream.getvalue() == "[0/2] still grading alice...\n[1/2] alice 1/2 in 5 s\n"
