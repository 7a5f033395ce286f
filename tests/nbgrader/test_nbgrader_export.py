"""``attnkit nbgrader export``: the course folder, the notebooks' structure and nbgrader metadata (no Jupyter run)."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys

import pytest

import attnkit.nbgrader as command
from attnkit import cli
from attnkit.nbgrader import cells, course
from attnkit.release.stubs import strip_markers
from grader import curriculum
from grader.runner import discover
from tests.nbgrader.nbgraderkit import (
    ASSIGNMENT,
    REPO,
    SEEDS,
    answer_cells,
    export,
    grade_cells,
    meta,
    notebooks,
    source,
)

RUN_CHECK = re.compile(r"^run_check\('(?P<exercise>\w+)', '(?P<name>\w+)', globals\(\)\)$")

SEED_FILE = re.compile(r"00[0-9]_[0-9a-f]{16}\.txt")


@pytest.fixture(scope="module")
def course_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("course") / "course"
    assert export(folder) == 0
    return folder


@pytest.fixture(scope="module")
def exported(course_dir):
    return notebooks(course_dir / "source" / ASSIGNMENT)


def test_writes_config_and_one_notebook_per_exercise(course_dir, exported, capsys):
    assert set(exported) == set(curriculum.ids())
    config = (course_dir / "nbgrader_config.py").read_text()
    assert "c.CourseDirectory.course_id = 'attnkit'" in config
    compile(config, "nbgrader_config.py", "exec")
    assert sorted(p.name for p in course_dir.iterdir()) == ["nbgrader_config.py", "source"]
    assert sorted(p.name for p in (course_dir / "source").iterdir()) == [ASSIGNMENT]  # no staging left behind


def test_notebooks_are_numbered_in_curriculum_order(exported):
    for number, exercise in enumerate(curriculum.exercises(), start=1):
        first = source(exported[exercise.id]["cells"][0])
        assert first.startswith(f"# {number}. {exercise.title}\n")
        assert exported[exercise.id]["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_points_per_exercise_equal_the_graders(exported, exercise):
    specs = discover(exercise)
    grades = grade_cells(exported[exercise])
    assert len(grades) == len(specs)  # one cell per check
    assert sum(meta(c)["points"] for c in grades) == sum(spec.points for spec in specs)
    assert [meta(c)["points"] for c in grades] == [spec.points for spec in sorted(specs, key=lambda s: s.task)]


def test_total_points_are_the_curriculums(exported):
    assert sum(meta(c)["points"] for nb in exported.values() for c in grade_cells(nb)) == curriculum.total_points()


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_cell_metadata_is_nbgraders_schema_3(exported, exercise):
    ids = []
    for cell in exported[exercise]["cells"]:
        data = meta(cell)
        assert data, "every cell of the source notebook is an nbgrader cell"
        assert data["schema_version"] == 3 and data["task"] is False
        assert re.fullmatch(r"[A-Za-z0-9_\-]+", data["grade_id"])
        ids.append(data["grade_id"])
        kind = (data["grade"], data["solution"], data["locked"])
        if cell["cell_type"] == "markdown" or source(cell).startswith("import "):
            assert kind == (False, False, True) and "points" not in data   # read-only
        elif data["solution"]:
            assert kind == (False, True, False) and "points" not in data   # autograded answer
            assert "### BEGIN SOLUTION" in source(cell)
        else:
            assert kind == (True, False, True) and data["points"] > 0        # autograder tests
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_metadata_passes_nbgraders_own_validator(exported, exercise):
    nbformat = pytest.importorskip("nbformat", reason="nbformat comes with the nbgrader extra")
    v3 = pytest.importorskip("nbgrader.nbgraderformat.v3", reason="nbgrader is not installed (the nbgrader extra)")
    notebook = nbformat.from_dict(exported[exercise])
    nbformat.validate(notebook)
    v3.MetadataValidatorV3().validate_nb(notebook)


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_test_cells_call_the_graders_checks_and_hold_no_copy(exported, exercise):
    specs = {spec.name: spec for spec in discover(exercise)}
    called = []
    for cell in grade_cells(exported[exercise]):
        code = [line for line in source(cell).splitlines() if line.strip() and not line.startswith("#")]
        assert code[0] == "from grader.notebook import run_check"
        assert len(code) == 2, code
        match = RUN_CHECK.match(code[1])
        assert match and match["exercise"] == exercise
        spec = specs[match["name"]]
        called.append(spec.name)
        assert meta(cell)["points"] == spec.points
        hidden = "### BEGIN HIDDEN TESTS" in source(cell)
        assert hidden == (spec.visibility == "hidden")
        if hidden:
            before, inside = source(cell).split("### BEGIN HIDDEN TESTS")
            assert inside.rstrip().endswith("### END HIDDEN TESTS")
            assert "run_check" not in before and spec.name not in before and spec.name not in meta(cell)["grade_id"]
    assert sorted(called) == sorted(specs)


def test_every_hidden_check_is_hidden(exported):
    hidden = [c for nb in exported.values() for c in grade_cells(nb) if "BEGIN HIDDEN TESTS" in source(c)]
    assert len(hidden) == sum(s.visibility == "hidden" for e in curriculum.ids() for s in discover(e)) > 0


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_answer_cells_are_the_solutions_own_text(exported, exercise):
    solutions = {path.stem: strip_markers(path.read_text()) for path in (REPO / "solutions").glob("*.py")}
    for cell in answer_cells(exported[exercise]):
        text = source(cell)
        assert text.count("### BEGIN SOLUTION") == text.count("### END SOLUTION") >= 1
        body = "\n".join(line for line in text.splitlines()
                         if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")
                         and not line.strip().startswith("# TODO: "))
        assert any(body in module for module in solutions.values()), meta(cell)["grade_id"]
        ast.parse(text)


def test_answer_cells_keep_the_todo_text_above_each_region(exported):
    text = source(next(c for c in answer_cells(exported["softmax"])))
    lines = text.splitlines()
    begin = lines.index("    ### BEGIN SOLUTION")
    todo = "implement softmax: normalise exp(x) along axis without overflowing for huge x"
    assert lines[begin - 1] == f"    # TODO: {todo}"


def test_later_exercises_get_earlier_definitions_as_ungraded_answer_cells(exported):
    ids = lambda nb: [meta(c)["grade_id"] for c in answer_cells(nb)]  # noqa: E731
    assert ids(exported["softmax"]) == ["answer_softmax"]
    assert ids(exported["attention"]) == ["earlier_apply_mask", "earlier_softmax",
                                          "answer_scaled_dot_product_attention", "answer_self_attention"]
    multihead = ids(exported["multihead"])
    assert multihead.index("earlier_scaled_dot_product_attention") > multihead.index("earlier_softmax")
    assert ids(exported["kv_cache"])[:1] == ["earlier_softmax"]
    assert not any(i.startswith("earlier_") for i in ids(exported["tiled_attention"]) + ids(exported["positional"]))


def test_student_version_contains_no_reference_code(exported):
    """What nbgrader's ClearSolutions does (every line from BEGIN to END SOLUTION goes) leaves no solution line."""
    solution_lines, student_lines = set(), set()
    for notebook in exported.values():
        for cell in notebook["cells"]:
            inside = False
            for line in source(cell).splitlines():
                if "BEGIN SOLUTION" in line or "END SOLUTION" in line:
                    inside = "BEGIN" in line
                elif inside:
                    if len(line.strip()) >= 12 and not line.strip().startswith("#"):
                        solution_lines.add(line.strip())
                else:
                    student_lines.add(line.strip())
    assert len(solution_lines) > 80
    assert not solution_lines & student_lines


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_intro_shows_the_module_docstring_and_no_source_document(exported, exercise):
    entry = curriculum.get(exercise)
    intro = source(exported[exercise]["cells"][0])
    assert entry.explanation.summary in intro
    assert entry.source not in intro and not SEED_FILE.search(json.dumps(exported[exercise]))  # students lack them
    assert "## What you build" in intro and "``" not in intro
    tasks = [source(c) for c in exported[exercise]["cells"] if meta(c)["grade_id"].startswith("task_")]
    assert [t.splitlines()[0] for t in tasks] == [f"## Task {t.number}: `{t.name}`" for t in entry.tasks]
    for task, text in zip(entry.tasks, tasks):
        assert all(hint in text for hint in task.hints)


def test_every_exercise_has_an_explanation_citing_its_curriculum_source():
    for exercise in curriculum.exercises():
        assert exercise.explanation.summary and exercise.explanation.quotes, exercise.id
        for quote in exercise.explanation.quotes:
            assert quote.file in exercise.source, (exercise.id, quote.file)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source documents (../shared/seeds) are not beside the repo")
def test_quotes_are_verbatim_from_the_seeds():
    normal = lambda text: " ".join(text.split())  # noqa: E731
    for exercise in curriculum.exercises():
        for quote in exercise.explanation.quotes:
            seed = normal((SEEDS / quote.file).read_text(encoding="utf-8"))
            assert normal(quote.text) in seed, (exercise.id, quote.text)


def test_exercise_subset_in_curriculum_order(tmp_path, capsys):
    assert export(tmp_path / "c", "--exercises", "attention,softmax") == 0
    assert sorted(notebooks(tmp_path / "c" / "source" / ASSIGNMENT)) == ["attention", "softmax"]
    points = curriculum.total_points(("softmax", "attention"))
    assert f"wrote 2 notebooks ({points:g} points)" in capsys.readouterr().out
    intro = source(notebooks(tmp_path / "c" / "source" / ASSIGNMENT)["attention"]["cells"][0])
    assert intro.startswith("# 2. ") and "exercise `attention`, 2 of 2." in intro  # numbered within the course


def test_unknown_exercise_is_refused_before_writing(tmp_path, capsys):
    assert export(tmp_path / "c", "--exercises", "softmx") == 2
    assert f"unknown exercise(s) 'softmx'; known: {', '.join(curriculum.ids())}" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_non_empty_folder_is_refused_without_force(tmp_path, capsys):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert export(folder) == 2
    assert capsys.readouterr().err.strip() == command.COURSE_NOT_EMPTY.format(path=folder, assignment=ASSIGNMENT)
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_force_replaces_the_assignment_and_keeps_everything_else(tmp_path):
    folder = tmp_path / "c"
    assert export(folder) == 0
    (folder / "gradebook.db").write_text("kept")
    (folder / "source" / ASSIGNMENT / "stale.ipynb").write_text("{}")
    assert export(folder, "--force", "--exercises", "masking", "--course-id", "cs-101") == 0
    assert sorted(notebooks(folder / "source" / ASSIGNMENT)) == ["masking"]
    assert (folder / "gradebook.db").read_text() == "kept"
    assert "course_id = 'cs-101'" in (folder / "nbgrader_config.py").read_text()
    assert sorted(p.name for p in (folder / "source").iterdir()) == [ASSIGNMENT]


def test_a_failed_write_leaves_the_previous_course_intact(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "c"
    assert export(folder, "--exercises", "softmax") == 0
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    def fail(staging, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(course, "_swap_in", fail)
    assert export(folder, "--force") == 1
    assert capsys.readouterr().err.strip() == command.CANNOT_WRITE.format(path=folder, reason="No space left on device")
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in (folder / "source").iterdir()) == [ASSIGNMENT]


def test_a_bad_course_id_is_refused(tmp_path, capsys):
    assert export(tmp_path / "c", "--course-id", "my course") == 2
    assert capsys.readouterr().err.strip() == command.BAD_COURSE_ID.format(course_id="my course")
    assert not (tmp_path / "c").exists()


def test_a_file_in_the_way_is_refused(tmp_path, capsys):
    target = tmp_path / "c"
    target.write_text("")
    assert export(target, "--force") == 2
    assert capsys.readouterr().err.strip() == command.NOT_A_FOLDER.format(path=target)


def test_the_cli_dispatches_to_it(tmp_path, capsys):
    assert cli.main(["nbgrader", "export", str(tmp_path / "c"), "--exercises", "softmax"]) == 0
    out = capsys.readouterr().out
    points = curriculum.get("softmax").points
    assert f"wrote 1 notebook ({points} points)" in out and "nbgrader generate_assignment self_attention" in out
    assert cli.main(["nbgrader"]) == 2  # argparse's usage error, as an exit status


def test_cells_refuse_nbgrader_delimiters_where_they_do_not_belong():
    for text in ("say ### BEGIN SOLUTION here", "x = 1  # END HIDDEN TESTS"):
        with pytest.raises(ValueError):
            cells.readonly_markdown("intro", text)
    with pytest.raises(ValueError):
        cells.tests("t", "### BEGIN SOLUTION\n### END SOLUTION", 1)
    with pytest.raises(ValueError):
        cells.answer("a", "def f():\n    pass")
    with pytest.raises(ValueError):
        cells.readonly_code("bad id!", "import numpy")
    with pytest.raises(ValueError):
        cells.notebook([cells.scratch("x"), cells.scratch("x")])


def test_check_grade_and_export_never_import_nbgrader(tmp_path):
    """nbgrader and Jupyter are an optional extra: the everyday verbs must not even import them."""
    script = f"""
import sys
from attnkit import cli
import attnkit.check, attnkit.grade, attnkit.grade.run, grader.notebook
assert cli.main(["nbgrader", "export", {str(tmp_path / 'c')!r}, "--exercises", "softmax"]) == 0
cli.main(["check", "softmax", "--impl", {str(REPO / 'exercises')!r}])
jupyter = ("nbgrader", "nbformat", "nbconvert", "jupyter_client", "IPython")
heavy = sorted(m for m in sys.modules if m.split(".")[0] in jupyter)
print("HEAVY", heavy)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert "HEAVY []" in done.stdout, done.stdout + done.stderr
    assert json.loads((tmp_path / "c" / "source" / ASSIGNMENT / "softmax.ipynb").read_text())["nbformat"] == 4
