"""What ``attnkit release`` writes: the right files, no solution code, no hidden check, a zip beside it."""
from __future__ import annotations

import ast
import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from attnkit.release import build as release_build
from attnkit.release import main, stubs
from attnkit.release.public import public_source
from grader import curriculum
from grader.runner import discover
from tests.release.releasekit import REPO, SOLUTIONS

HIDDEN = {s.name for e in curriculum.ids() for s in discover(e) if s.visibility == "hidden"}
PUBLIC = [s for e in curriculum.ids() for s in discover(e) if s.visibility != "hidden"]
BEGIN, END = re.compile(r"^\s*### BEGIN SOLUTION"), re.compile(r"^\s*### END SOLUTION")


def solution_body_lines() -> set[str]:
    """Every non-trivial line inside a BEGIN/END SOLUTION block (comment removed, stripped)."""
    lines = set()
    for path in SOLUTIONS.glob("*.py"):
        inside = False
        for line in path.read_text().splitlines():
            if BEGIN.match(line):
                inside = True
            elif END.match(line):
                inside = False
            elif inside:
                code = line.split("#", 1)[0].strip()
                if len(code) >= 12 and not code.endswith(("(", "[", "{")):  # not `return x`, `raise ValueError(`
                    lines.add(code)
    return lines


def release_texts(release: Path) -> dict[str, str]:
    """name -> text of every file of the release folder and of its zip (binary files decoded leniently)."""
    texts = {p.relative_to(release).as_posix(): p.read_bytes().decode("utf-8", "replace")
             for p in release.rglob("*") if p.is_file()}
    with zipfile.ZipFile(release.with_name(release.name + ".zip")) as zipped:
        for name in zipped.namelist():
            texts[f"zip:{name}"] = zipped.read(name).decode("utf-8", "replace")
    return texts


def test_layout(release):
    # what was built: the zip (other tests run the kit inside the folder, which may leave bytecode and caches there)
    with zipfile.ZipFile(release.with_name(release.name + ".zip")) as zipped:
        built = [name.removeprefix(f"{release.name}/") for name in zipped.namelist()]
    assert sorted({name.split("/")[0] for name in built}) == ["README.md", "attnkit", "exercises", "grader",
                                                              "pyproject.toml", "quizzes"]
    assert not [name for name in built if "__pycache__" in name or name.endswith(".pyc")]
    expected = stubs.generate(SOLUTIONS)
    assert {p.name: p.read_text() for p in (release / "exercises").glob("*.py")} == expected
    shipped = sorted(p.name for p in (REPO / "quizzes").iterdir() if p.is_file())
    in_quizzes = sorted(name.removeprefix("quizzes/") for name in built if name.startswith("quizzes/"))
    assert in_quizzes == sorted([*shipped, "about.json"])   # + its index
    readme = (release / "README.md").read_text()
    for command in ("attnkit check", "attnkit hint", "attnkit quiz", "pip install ."):
        assert command in readme
    assert "$" not in readme  # every template field filled


def test_pyproject_installs_attnkit_without_the_solutions(release):
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((release / "pyproject.toml").read_text())
    assert project["project"]["name"] == "attnkit"
    assert project["project"]["scripts"]["attnkit"] == "attnkit.cli:entry"
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["attnkit*", "grader*", "quizzes*"]
    assert "recorded/*.bin" in project["tool"]["setuptools"]["package-data"]["grader"]
    assert any(d.startswith("numpy") for d in project["project"]["dependencies"])
    assert not (release / "solutions").exists()
    assert not (release / "grader" / "kept_results.py").exists()   # the checkout's kept reference results: its own


def test_no_line_of_a_solution_body_is_in_the_release(release):
    body = solution_body_lines()
    assert len(body) >= 60
    # the matcher finds the lines where they are: in the solutions themselves
    solution_lines = [line for p in SOLUTIONS.glob("*.py") for line in p.read_text().splitlines()]
    assert sum(line.split("#", 1)[0].strip() in body for line in solution_lines) >= len(body)
    found = [(name, number, line.strip()) for name, text in release_texts(release).items()
             for number, line in enumerate(text.splitlines(), start=1)
             if line.split("#", 1)[0].strip() in body or line.strip() in body]
    assert not found


def test_no_hidden_check_is_named_anywhere(release):
    assert HIDDEN  # the scan below has names to look for
    found = [(name, hidden) for name, text in release_texts(release).items() for hidden in HIDDEN if hidden in text]
    assert not found


def test_the_check_modules_are_the_projects_minus_the_hidden_checks(release):
    for exercise in curriculum.ids():
        project = (REPO / "grader" / "checks" / f"check_{exercise}.py").read_text()
        shipped = (release / "grader" / "checks" / f"check_{exercise}.py").read_text()
        hidden = {s.name for s in discover(exercise) if s.visibility == "hidden"}
        assert shipped == public_source(project, hidden)
        functions = {n.name: ast.get_source_segment(shipped, n) for n in ast.parse(shipped).body
                     if isinstance(n, ast.FunctionDef)}
        originals = {n.name: ast.get_source_segment(project, n) for n in ast.parse(project).body
                     if isinstance(n, ast.FunctionDef)}
        assert {name for name in functions if name.startswith("test_")} == {s.name for s in discover(exercise)
                                                                              if s.visibility != "hidden"}
        assert all(functions[name] == originals[name] for name in functions)  # byte for byte


def test_recording_is_numpy_and_json_without_pickles(release):
    folder = release / "grader" / "recorded"
    size = (folder / "reference.bin").stat().st_size
    meta = json.loads((folder / "reference.json").read_text())
    parts = [json.loads((folder / f"{kind}-{module}.json").read_text())
             for kind, modules in ((kind, meta[f"{kind}_modules"]) for kind in ("reference", "near", "mistakes"))
             for module in modules]
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(
        ["reference.json", *(f"{kind}-{m}.json" for kind in ("reference", "near", "mistakes")
                             for m in meta[f"{kind}_modules"])])
    table = {k: v for part in parts for k, v in part["arrays"].items()}
    names = set(table)
    for dtype, shape, offset in table.values():
        assert not np.dtype(dtype).hasobject and np.dtype(dtype).kind in "biufc"
        assert offset % 8 == 0 and offset + np.dtype(dtype).itemsize * int(np.prod(shape)) <= size
    assert not list(folder.glob("*.npz")) and not list(folder.glob("*.pkl"))
    digests = set(re.findall(r'"h": "([0-9a-f]{40})"', json.dumps([part["calls"] for part in parts])))
    assert digests and digests <= names
    assert meta["reference_modules"] and meta["near_modules"] and meta["mistakes_modules"]


def test_zip_holds_the_folder(release):
    with zipfile.ZipFile(release.with_name(release.name + ".zip")) as zipped:
        members = {name: zipped.read(name) for name in zipped.namelist()}
    files = {f"{release.name}/{p.relative_to(release).as_posix()}": p.read_bytes()
             for p in release.rglob("*") if p.is_file()}
    assert members == files


def test_only_the_students_verbs_ship(release):
    verbs = sorted(p.name for p in (release / "attnkit").iterdir() if p.is_dir() and p.name != "__pycache__")
    assert verbs == ["check", "hint", "pack", "quiz", "show", "watch"]
    assert sorted(p.name for p in (release / "attnkit" / "show").glob("*.py")) == \
        ["__init__.py", "errors.py", "gpt.py", "render.py", "tokens.py"]   # show gpt only: no reference inside
    for verb in verbs:
        shipped = (release / "attnkit" / verb / "__init__.py").read_text()
        assert shipped == (REPO / "attnkit" / verb / "__init__.py").read_text()


def test_refuses_a_non_empty_folder_without_force(tmp_path, capsys):
    out = tmp_path / "student"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main([str(out)]) == 2
    assert capsys.readouterr().err.strip() == release_build.NOT_EMPTY.format(path=out.absolute())
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["student"]


def test_refuses_an_existing_zip_without_force(tmp_path, capsys):
    (tmp_path / "student.zip").write_bytes(b"old")
    assert main([str(tmp_path / "student")]) == 2
    assert "student.zip already exists" in capsys.readouterr().err
    assert (tmp_path / "student.zip").read_bytes() == b"old"


def test_refuses_the_source_tree(capsys):
    assert main([str(REPO), "--force"]) == 2
    assert "attnkit sources" in capsys.readouterr().err
    assert main([str(REPO / "grader" / "release"), "--force"]) == 2


@pytest.mark.slow
def test_force_replaces_and_a_failed_build_leaves_nothing(release, tmp_path, monkeypatch, capsys):
    out = tmp_path / "student"
    out.mkdir()
    (out / "stale.txt").write_text("old")
    (tmp_path / "student.zip").write_bytes(b"old")
    assert main([str(out), "--force"]) == 0
    assert not (out / "stale.txt").exists() and (out / "exercises").is_dir()
    assert zipfile.is_zipfile(tmp_path / "student.zip")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["student", "student.zip"]  # no temporary left
    assert (tmp_path / "student.zip").read_bytes() == release.with_name("student.zip").read_bytes()  # deterministic

    def broken(tree, sources, *rest):
        tree.mkdir(parents=True)
        (tree / "half.txt").write_text("half")
        raise release_build.BuildFailed("attnkit release: injected failure")

    monkeypatch.setattr("attnkit.release.assemble.assemble", broken)
    fresh = tmp_path / "fresh"
    assert main([str(fresh)]) == 1
    assert "injected failure" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["student", "student.zip"]
