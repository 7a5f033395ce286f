"""The exported course under the real nbgrader: generate_assignment, then autograde two submissions.

Student ``alice`` hands in the release notebooks filled with the reference solutions and must
get full marks (the grader's total); ``bob`` hands in three untouched release notebooks (softmax, the first
exercise with hidden checks, the last exercise) and nothing else, and must get zero in every notebook, handed in
or not. (Every notebook comes from one exporter and every stub raises the same way: three stand for the rest,
where each kernel start costs about a second.) Runs nbgrader's own command line in a subprocess, with Jupyter's
folders inside the test's temporary folder so no user configuration or kernel spec of the machine interferes.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader import curriculum
from grader.runner import discover
from tests.nbgrader.nbgraderkit import (
    ASSIGNMENT,
    answer_cells,
    export,
    grade_cells,
    jupyter_env,
    meta,
    notebooks,
    source,
    submit,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("nbgrader") is None,
                       reason="nbgrader is not installed (pip install -e '.[nbgrader]'; scripts/test.sh installs it)"),
]


def nbgrader(course: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return done


def test_generate_and_autograde_full_marks_and_zero(tmp_path):
    from nbgrader.api import Gradebook

    course = tmp_path / "course"
    assert export(course) == 0
    env = jupyter_env(tmp_path / "jupyter")
    start = time.perf_counter()
    nbgrader(course, "generate_assignment", ASSIGNMENT, env=env)
    generated = time.perf_counter() - start

    release = notebooks(course / "release" / ASSIGNMENT)
    assert set(release) == set(curriculum.ids())
    hidden_names = {s.name for e in curriculum.ids() for s in discover(e) if s.visibility == "hidden"}
    for exercise, notebook in release.items():
        text = json.dumps(notebook)
        assert not any(name in text for name in hidden_names), exercise
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
        for cell in answer_cells(notebook):
            assert "raise NotImplementedError()" in source(cell)

    submit(course, "alice", fill=True)
    with_hidden = next(e for e in curriculum.ids() if any(s.visibility == "hidden" for s in discover(e)))
    submit(course, "bob", fill=False, only={"softmax", with_hidden, curriculum.ids()[-1]})
    start = time.perf_counter()
    nbgrader(course, "autograde", ASSIGNMENT, env=env)
    autograded = time.perf_counter() - start
    print(f"\nnbgrader generate_assignment: {generated:.1f} s; autograde of "
          f"{len(curriculum.ids())} + 3 notebooks: {autograded:.1f} s")

    expected = {e: sum(s.points for s in discover(e)) for e in curriculum.ids()}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="attnkit") as gradebook:
        alice = gradebook.find_submission(ASSIGNMENT, "alice")
        bob = gradebook.find_submission(ASSIGNMENT, "bob")
        assert alice.max_score == bob.max_score == curriculum.total_points()
        assert alice.score == curriculum.total_points()
        assert bob.score == 0
        assert {graded.name for graded in bob.notebooks} == set(curriculum.ids())   # the missing ones at 0 too
        for submission, full in ((alice, True), (bob, False)):
            for graded in submission.notebooks:
                assert graded.max_score == expected[graded.name]
                for grade in graded.grades:
                    assert grade.score == (grade.max_score if full else 0), (submission.student.id, graded.name,
                                                                            grade.name)

    # the failures bob sees are the checks' own messages
    bob_softmax = json.loads((course / "autograded" / "bob" / ASSIGNMENT / "softmax.ipynb").read_text())
    errors = [output for cell in grade_cells(bob_softmax) for output in cell["outputs"]
              if output["output_type"] == "error"]
    assert len(errors) == len(discover("softmax"))
    assert all(e["ename"] == "NotebookCheckFailed" and e["evalue"].startswith("not implemented yet") for e in errors)
    # hidden checks (softmax has none since every dtype and rejects check is public) are restored for grading
    notebook = json.loads((course / "autograded" / "bob" / ASSIGNMENT / f"{with_hidden}.ipynb").read_text())
    hidden_cells = [c for c in grade_cells(notebook) if meta(c)["grade_id"].startswith("hidden_")]
    assert hidden_cells and all("run_check" in source(c) for c in hidden_cells)
