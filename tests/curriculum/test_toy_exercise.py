"""Adding an exercise takes exactly the files docs/adding-an-exercise.md lists, and every front end shows it.

A toy exercise (``tests/curriculum/toykit.py``) is added to a temporary copy of the project; each
front end then runs from that copy in a subprocess, as an instructor or a student would run it (devcheck and the
course's own test of the rules, one after the other in one process: ``toykit.run_steps``).
"""
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from attnkit.devcheck.rules import RULES
from tests.curriculum import toykit
from tests.curriculum.toykit import TOY, run

NEW_FILES = {f"solutions/{TOY}.py", f"grader/checks/check_{TOY}.py", f"grader/mistakes/{TOY}.py", f"quizzes/{TOY}.yaml",
             f"exercises/{TOY}.py"}                               # the last one generated
CHANGED_FILES = {"grader/curriculum.yaml", "exercises/__init__.py"}  # one entry; the generated package doc


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = toykit.copy_project(tmp_path_factory.mktemp("toy") / "project")
    toykit.add_toy(root)
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for folder in toykit.COPIED if (root / folder).is_dir()
            for p in (root / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_adding_takes_exactly_the_documented_files(project):
    before, after = _files(toykit.ROOT), _files(project)
    assert set(after) - set(before) == NEW_FILES
    assert {name for name in before if name in after and before[name] != after[name]} == CHANGED_FILES


def test_dev_check_finds_nothing_missing(project):
    done, course = toykit.run_steps(project, ("devcheck", []), course_test(project))
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(rf"^  {TOY} +ok$", done.stdout, re.MULTILINE), done.stdout
    assert "exercises complete\n" in done.stdout
    assert course.returncode == 0, course.stdout + course.stderr


@pytest.mark.slow
@pytest.mark.parametrize("rule", [rule.id for rule in RULES])
def test_breaking_a_rule_fails_both_devcheck_and_the_tests(project, tmp_path, rule):
    """Each rule broken once on the toy (a new rule without a way to break it here fails): devcheck names it
    and exits non-zero, and the test asserting the course's rules (tests/curriculum/test_course.py) fails."""
    assert rule in toykit.BREAK, f"add to tests/curriculum/toykit.BREAK a way to break the rule {rule!r}"
    root = shutil.copytree(project, tmp_path / "project")
    toykit.BREAK[rule](root)
    scope = [] if rule == "unclaimed" else [TOY]
    done, course = toykit.run_steps(root, ("devcheck", scope), course_test(root))
    assert done.returncode == 1 and f"[{rule}]" in done.stdout, done.stdout + done.stderr
    assert course.returncode == 1, course.stdout + course.stderr


@pytest.mark.slow
def test_devcheck_finds_a_mutant_no_check_detects(project, tmp_path):
    root = shutil.copytree(project, tmp_path / "project")
    mistakes = root / "grader" / "mistakes" / f"{TOY}.py"
    mistakes.write_text(mistakes.read_text(encoding="utf-8") + toykit.UNDETECTABLE, encoding="utf-8")
    bank = root / "quizzes" / f"{TOY}.yaml"
    bank.write_text(bank.read_text(encoding="utf-8").replace("[toy_scale_no_scale]", "[toy_scale_no_scale, "
                                                             "toy_scale_divided]"), encoding="utf-8")
    holds, done = toykit.run_steps(root, ("devcheck", [TOY]), ("devcheck", ["--mutants", TOY]))
    assert holds.returncode == 0, holds.stdout + holds.stderr   # every rule holds
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("toy_scale_divided: its mutant scores full marks, so no check tells it from the reference [mutants]"
            in done.stdout), done.stdout
    assert "toy_scale_no_scale: caught" in done.stderr and "toy_scale_no_scale:" not in done.stdout


def course_test(root: Path) -> tuple[str, list[str]]:
    """The step of toykit.run_steps that runs tests/curriculum/test_course.py on the copy, for the toy (and the
    course's files)."""
    for name in ("tests/curriculum/test_course.py", "docs/adding-an-exercise.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(toykit.ROOT / name, root / name)
    return "pytest", ["-q", "tests/curriculum/test_course.py", "-k", f"{TOY} or unclaimed"]


def test_check_runs_it_and_names_its_mistake(project, tmp_path):
    passed = run(project, "-m", "attnkit", "check", TOY, "--impl", "solutions")
    assert passed.stdout.startswith(f"PASS  {TOY}")
    todo = run(project, "-m", "attnkit", "check", TOY, "--impl", "exercises", check=False)
    assert todo.returncode == 1 and todo.stdout.startswith(f"TODO  {TOY}")
    mutant = tmp_path / "mutant"
    mutant.mkdir()
    solution = (project / "solutions" / f"{TOY}.py").read_text(encoding="utf-8")
    (mutant / f"{TOY}.py").write_text(solution.replace("return scores * (1.0 / math.sqrt(d_k))", "return scores"))
    failed = run(project, "-m", "attnkit", "check", TOY, "--impl", str(mutant), check=False)
    assert failed.returncode == 1 and "looks like the scores were not divided by sqrt(d_k)" in failed.stdout


def test_grade_gives_it_a_column(project, tmp_path):
    submissions = tmp_path / "submissions"
    shutil.copytree(project / "solutions", submissions / "alice")
    run(project, "-m", "attnkit", "grade", str(submissions), "--out", str(tmp_path / "out"), "--jobs", "1",
        "--no-progress")
    header, alice = (tmp_path / "out" / "grades.csv").read_text().splitlines()
    assert header.endswith(f",{TOY},note") and alice.endswith(",5,")
    assert json.loads((tmp_path / "out" / "alice.json").read_text())["score"] == float(alice.split(",")[1])


def test_the_release_ships_it(project, tmp_path):
    """A one-exercise course: the release holds its stub, public check, mistakes and bank, and checks it."""
    script = (f"from pathlib import Path\nfrom attnkit.release.build import build\n"
              f"build(Path({str(tmp_path / 'student')!r}), exercises=({TOY!r},))")
    run(project, "-c", script)
    student = tmp_path / "student"
    assert sorted(p.name for p in (student / "exercises").glob("*.py")) == ["__init__.py", f"{TOY}.py"]
    assert (student / "grader" / "checks" / f"check_{TOY}.py").is_file()
    assert (student / "quizzes" / f"{TOY}.yaml").is_file() and f"`{TOY}`" in (student / "README.md").read_text()
    todo = run(student, "-m", "attnkit", "check", check=False)
    assert todo.returncode == 1 and todo.stdout.startswith(f"TODO  {TOY}")


def test_the_nbgrader_export_has_its_notebook(project, tmp_path):
    run(project, "-m", "attnkit", "nbgrader", "export", str(tmp_path / "course"), "--exercises", TOY)
    notebook = json.loads((tmp_path / "course" / "source" / "self_attention" / f"{TOY}.ipynb").read_text())
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    assert any(f"run_check({TOY!r}, 'test_scaled_scores_match_reference', globals())" in s for s in sources)


def test_the_gradescope_bundle_holds_it(project, tmp_path):
    run(project, "-m", "attnkit", "gradescope", "build", "-o", str(tmp_path / "autograder.zip"))
    bundle = zipfile.ZipFile(tmp_path / "autograder.zip")
    wheel_name = next(name for name in bundle.namelist() if name.endswith(".whl"))
    wheel = zipfile.ZipFile(io.BytesIO(bundle.read(wheel_name)))
    shipped = {f"grader/checks/check_{TOY}.py", f"grader/mistakes/{TOY}.py", f"solutions/{TOY}.py"}
    assert shipped <= set(wheel.namelist())
    assert f"id: {TOY}" in wheel.read("grader/curriculum.yaml").decode()
