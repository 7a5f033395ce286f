"""The hostile-submission catalogue, graded in ONE ``attnkit grade`` run beside two control students.

Every case (``cases/<case_id>/``, see hostilekit.py) gets exactly the points its ``expected.yaml``
states for the exercise it attacks, full marks everywhere else, and the message fragment it names. The run
grades the exercises up to one past the last any case names (``hostilekit.course``).
The run as a whole: completes with status 0 and no traceback, leaves no process behind (the
census of graded_run.py, which makes the grading process a child subreaper), writes nothing
outside its output folder (a snapshot of the run's tree, a world-writable canary folder, the
grader's private TMPDIR left empty), and grades the two controls (the reference, the stubs)
exactly as a clean run with only them does.
"""
from __future__ import annotations

import csv
import json
import os
import re
import sys
from pathlib import Path

import pytest

from attnkit.grade import records
from attnkit.report.page import REPORT_HTML
from grader.sandbox.inside import landlock
from tests.hostile import hostilekit as kit

pytestmark = pytest.mark.slow
CASES = kit.load_cases()
COURSE = kit.course(CASES)  # the exercises up to one past the last a case names (hostilekit.course)
ON_COURSE = ("--exercises", ",".join(COURSE))
CLASS_FILE = re.compile(r"^(grades|summary)[.-][\w.-]+$")  # grades.csv, summary.txt, summary-scores.png...
ESCAPE_FILES = [Path(folder, "attnkit-hostile-pwned.txt") for folder in ("/tmp", "/var/tmp", "/dev/shm")]


def case_params(cases):
    params = []
    for case in cases:
        marks = [pytest.mark.xfail(strict=True, reason=f"known hole: {case.xfail}")] if case.xfail else []
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


def needs(case: kit.Case) -> None:
    if landlock.abi() < case.landlock_abi:
        pytest.skip(f"holds only where the kernel has Landlock ABI {case.landlock_abi}+ (see SECURITY.md)")


def without_timings(record: dict) -> dict:
    for exercise in record["exercises"]:
        for check in exercise["checks"]:
            check["seconds"] = 0.0
    return record


@pytest.fixture(scope="module")
def graded():
    """The whole catalogue and the two controls in one run; then the controls alone in a clean run."""
    layout, clean = kit.Layout.make(), kit.Layout.make()
    try:
        kit.build_controls(layout)
        kit.build_controls(clean)
        for case in CASES:
            kit.build_case(case, layout)
        escapes_before = [path.exists() for path in ESCAPE_FILES]
        before = kit.snapshot(layout.root, skip=(layout.out, layout.tmp))
        ipc_before = kit.sysv_objects()
        run = kit.grade(layout, *ON_COURSE)
        ipc_after = kit.sysv_objects()
        after = kit.snapshot(layout.root, skip=(layout.out, layout.tmp))
        leftovers = sorted(os.listdir(layout.tmp))
        again = kit.grade(layout, *ON_COURSE)  # the same temp dir: whatever the first run left must not break it
        yield {"run": run, "clean": kit.grade(clean, *ON_COURSE), "before": before, "after": after,
               "leftovers": leftovers, "again": again, "escapes": list(zip(ESCAPE_FILES, escapes_before)),
               "ipc": ipc_after - ipc_before}
    finally:
        kit.remove(layout)
        kit.remove(clean)


def test_catalogue_covers_every_family():
    assert len(CASES) >= 25
    exercises = set(kit.max_points())
    for family in kit.FAMILIES:
        assert sum(case.family == family for case in CASES) >= 3, family
    for case in CASES:
        assert case.family in kit.FAMILIES, case.id
        assert case.exercise in exercises and set(case.points) <= exercises, case.id
        assert case.threat.strip(), case.id
        assert case.refused or case.points or not case.message, f"{case.id}: a message for full marks?"


@pytest.mark.parametrize("case", case_params(CASES))
def test_exact_points(graded, case):
    needs(case)
    run = graded["run"]
    expected = kit.expected_points(case, COURSE)
    got = {ex: points for ex, points in run.points(case.id).items() if expected.get(ex, 0) is not None}
    assert got == pytest.approx({ex: p for ex, p in expected.items() if p is not None}), \
        run.messages(case.id, case.exercise)[:3000]
    if None not in expected.values():
        assert run.gradescope(case.id)["score"] == pytest.approx(sum(expected.values()))  # nothing printed counted


@pytest.mark.parametrize("case", case_params(CASES))
def test_message_names_what_happened(graded, case):
    needs(case)
    messages = graded["run"].messages(case.id, case.exercise)
    assert case.message in messages, messages[:3000]


@pytest.mark.parametrize("case", case_params([case for case in CASES if case.note]))
def test_problem_reported_to_the_instructor(graded, case):
    needs(case)
    run = graded["run"]
    assert case.note in run.notes(case.id), run.record(case.id).get("notes")
    summary = json.loads((run.layout.out / "summary.json").read_text(encoding="utf-8"))
    listed = {(p["student"], p["kind"]) for p in summary["problems"]}
    assert (case.id, case.note) in listed
    details = [p["detail"] for p in summary["problems"] if (p["student"], p["kind"]) == (case.id, case.note)]
    assert any(case.note_detail in detail for detail in details), details
    assert case.id in (run.layout.out / "summary.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", case_params([case for case in CASES if case.hidden_only]))
def test_hidden_results_never_show_before_publication(graded, case):
    """What a student sees before grades are published (the Gradescope total, the output, the visible checks) is
    computed from visible checks alone: a hand-in failing only hidden checks reads as full marks there."""
    shown = graded["run"].gradescope(case.id)
    assert shown["visibility"] == "after_published"  # the total (which counts the hidden checks) once published
    now = "\n".join([shown["output"]] + [test["output"] for test in shown["tests"] if test["visibility"] == "visible"])
    for exercise, points in kit.visible_max_points(COURSE).items():
        assert f"{exercise}: {points:g}/{points:g}" in shown["output"], shown["output"]
    assert "fails its own checks" not in now and "fail their own checks" not in now, now


def control_characters(text: str) -> list[str]:
    return sorted({char for char in text if not char.isprintable() and char not in "\n\t"})


def test_no_control_character_reaches_people(graded):
    """Whatever a child printed or raised, no raw escape sequence reaches the instructor's terminal, summary.txt or
    anyone's results: every control or format character is shown escaped."""
    run = graded["run"]
    assert control_characters(run.stdout) == [] and control_characters(run.stderr) == []
    assert control_characters((run.layout.out / "summary.txt").read_text(encoding="utf-8")) == []
    for path in list(run.layout.out.glob("*.json")) + list((run.layout.out / ".attnkit").glob("*.json")):
        todo, texts = [json.loads(path.read_text(encoding="utf-8"))], []
        while todo:  # every string of the file, as its readers get it back
            value = todo.pop()
            if isinstance(value, dict):
                todo += [*value.keys(), *value.values()]
            elif isinstance(value, list):
                todo += value
            elif isinstance(value, str):
                texts.append(value)
        assert control_characters("".join(texts)) == [], path.name


def test_no_machine_path_reaches_students(graded):
    """What a student reads (their results, in either file) names no path of the grading machine: the kit's
    checkout, the Python installation or environment, the grader's temp folders."""
    run = graded["run"]
    # (not the class or canary folders: the catalogue tells attacks where they are, and a student's own zip entry
    # name may hold them)
    machine = {str(kit.REPO), sys.prefix, sys.base_prefix, os.path.dirname(sys.executable), str(run.layout.tmp)}
    for path in list(run.layout.out.glob("*.json")) + list((run.layout.out / ".attnkit").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert [place for place in machine if place in text] == [], path.name


def test_second_run_on_the_same_temp_dir(graded):
    """A run after this one (same TMPDIR, same OUTDIR) completes: nothing a hostile child left behind breaks it."""
    again = graded["again"]
    assert again.status == 0, again.stderr[-3000:]
    assert "Traceback" not in again.stderr, again.stderr[-3000:]
    assert os.listdir(again.layout.tmp) == []


def test_run_completes(graded):
    run = graded["run"]
    assert run.status == 0, run.stderr[-3000:]  # 0: every submission graded (refused ones score 0)
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    summary = json.loads((run.layout.out / "summary.json").read_text(encoding="utf-8"))
    assert summary["grader_errors"] == []  # whatever a child sent, it is the student's error, never the grader's
    students = sorted(case.id for case in CASES) + sorted(kit.CONTROLS)
    blamed = [(student, check["name"]) for student in students for exercise in run.record(student)["exercises"]
              for check in exercise["checks"] if check["status"] == "grader_error"]
    assert blamed == []  # judging any value a child sent never fails on the trusted side
    with open(run.layout.out / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert sorted(rows) == sorted(students)
    for case in CASES:
        expected = kit.expected_points(case, COURSE)
        if not case.xfail and None not in expected.values():
            assert float(rows[case.id]["score"]) == pytest.approx(sum(expected.values())), case.id


def test_controls_graded_as_in_a_clean_run(graded):
    run, clean = graded["run"], graded["clean"]
    assert clean.status == 0, clean.stderr[-3000:]
    for student in kit.CONTROLS:
        assert without_timings(run.record(student)) == without_timings(clean.record(student)), student
        assert (run.layout.out / f"{student}.json").read_bytes() == (clean.layout.out / f"{student}.json").read_bytes()
    assert run.points("control_reference") == kit.max_points(COURSE)
    assert sum(run.points("control_stubs").values()) == 0


def test_no_process_survives(graded):
    """Not the detached grandchild (double fork + setsid), not a fork loop, not a child that ignores SIGTERM."""
    assert graded["run"].strays == [], graded["run"].strays
    assert graded["clean"].strays == []


def test_no_kernel_object_survives(graded):
    """No SysV shared memory, message queue or semaphore set made during the run outlives it."""
    assert graded["ipc"] == set()


def test_nothing_written_outside_the_output_folder(graded):
    run = graded["run"]
    assert graded["after"] == graded["before"]  # the class folder, the canary, everything but out/ and tmp/
    assert (run.layout.canary / "canary.txt").read_text() == kit.CANARY_TEXT
    assert sorted(os.listdir(run.layout.canary)) == ["canary.txt"]
    assert graded["leftovers"] == []  # the grader's own temporary folders are gone too
    for path, existed in graded["escapes"]:
        assert path.exists() == existed, path


def test_records_stay_small(graded):
    """Whatever a child puts in an error (a 1 MB list...), a student's files stay small."""
    out = graded["run"].layout.out
    for path in list(out.glob("*.json")) + list((out / ".attnkit").glob("*.json")):
        assert path.stat().st_size < 512 << 10, path.name


def test_output_folder_holds_only_results(graded):
    run = graded["run"]
    students = {case.id for case in CASES} | set(kit.CONTROLS)
    allowed = {f"{records.file_stem(student)}.json" for student in students} | {".attnkit", REPORT_HTML}
    unexpected = {name for name in os.listdir(run.layout.out) if name not in allowed and not CLASS_FILE.match(name)}
    assert unexpected == set()
    assert set(os.listdir(run.layout.out / ".attnkit")) == {f"{records.file_stem(s)}.json" for s in students}
