"""The visible test cells work in a student's kernel that has only the student release (no solutions).

Each exported notebook's code cells are executed in order, as a kernel runs them, inside
``python -I -S`` whose ``sys.path`` is the release folder and the dependencies only (so
``solutions`` cannot be imported); ``ref`` answers from the release's recording. Filled with
the reference's text, every visible check passes; with the solution regions stubbed as
nbgrader stubs them, every visible check fails as not implemented.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader import curriculum
from grader.runner import discover
from tests.nbgrader.nbgraderkit import ASSIGNMENT, export

pytestmark = pytest.mark.slow

SITE = str(Path(importlib.util.find_spec("numpy").origin).parents[1])

KERNEL = """import json, sys
sys.path[:0] = [{release!r}, {site!r}]
import importlib.util
assert importlib.util.find_spec("solutions") is None, "isolation broken: solutions is importable"

def student_version(text, stub):
    out, inside = [], False
    for line in text.splitlines():
        if "BEGIN SOLUTION" in line:
            inside = True
            if stub:  # what nbgrader's ClearSolutions writes
                indent = line[: len(line) - len(line.lstrip())]
                out += [indent + "# YOUR CODE HERE", indent + "raise NotImplementedError()"]
        elif "END SOLUTION" in line:
            inside = False
        elif not inside or not stub:
            out.append(line)
    return "\\n".join(out)

results = {{}}
for path in sys.argv[2:]:
    notebook = json.load(open(path))
    names = {{"__name__": "__main__"}}
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        text = "".join(cell["source"])
        if "BEGIN HIDDEN TESTS" in text:
            continue  # nbgrader removes these from the release
        meta = cell["metadata"]["nbgrader"]
        if not meta["grade"]:
            exec(compile(student_version(text, sys.argv[1] == "stub"), "<cell>", "exec"), names)
            continue
        try:
            exec(compile(text, "<cell>", "exec"), names)
            results[meta["grade_id"]] = "passed"
        except AssertionError as failure:
            results[meta["grade_id"]] = str(failure).splitlines()[0]
print(json.dumps(results))
"""


def run_kernel(release: Path, mode: str, notebooks: list[Path]) -> dict:
    code = KERNEL.format(release=str(release), site=SITE)
    # -B: the release is the session's, shared with the release tests (test_zip_holds_the_folder): nothing written
    done = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", code, mode, *map(str, notebooks)], cwd=release,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_visible_test_cells_run_on_the_student_release(tmp_path, release):
    assert export(tmp_path / "course") == 0
    notebooks = sorted((tmp_path / "course" / "source" / ASSIGNMENT).glob("*.ipynb"))
    visible = {s.name for e in curriculum.ids() for s in discover(e) if s.visibility != "hidden"}

    filled = run_kernel(release, "filled", notebooks)
    assert set(filled) == visible
    assert {name: outcome for name, outcome in filled.items() if outcome != "passed"} == {}

    stubbed = run_kernel(release, "stub", notebooks)
    assert set(stubbed) == visible
    assert all(outcome.startswith("not implemented yet") for outcome in stubbed.values()), stubbed
