"""``attnkit gradescope build``: the zip, unpacked into a folder laid out like Gradescope's
(``source/``, ``submission/``, ``results/``, ``run_autograder``), grades a submission with the
bundled wheel and writes a results.json that validates against the documented format.

setup.sh's pip install is not run (no network in tests); the bundled wheel is installed with
``pip install --no-deps --target`` into a folder that a bare virtual environment lists before this venv's
dependencies (a ``.pth`` file: ``run_autograder`` runs Python in isolated mode, which ignores PYTHONPATH),
so the code that grades is the code in the zip, even when the script is started inside this checkout.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import jsonschema
import pytest

from attnkit.gradescope import build as bundle_build
from attnkit.gradescope import main
from attnkit.gradescope.autograde import SCHEMA_PATH, lone_zip, run
from grader import curriculum
from grader.runner import discover

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
SCHEMA = json.loads(SCHEMA_PATH.read_text())
TOTAL = sum(spec.points for exercise in curriculum.ids() for spec in discover(exercise))  # hidden checks included


def installed(folder: Path, *build_args: str) -> tuple[Path, Path]:
    """Build the zip (with ``build_args``) and install its wheel as setup.sh would, without network:
    (the zip, a Python whose attnkit is the wheel's)."""
    archive = folder / "autograder.zip"
    assert main(["build", "-o", str(archive), "--timeout", "20", *build_args]) == 0
    with zipfile.ZipFile(archive) as zipped:
        (wheel,) = [n for n in zipped.namelist() if n.endswith(".whl")]
        zipped.extract(wheel, folder)
    site = folder / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target",
                           str(site), str(folder / wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    venv = folder / "attnkit-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # the wheel first, then this venv's numpy and the rest (its .pth files, this checkout's editable install
    # among them, are not read from a folder a .pth file lists)
    Path(purelib, "bundle.pth").write_text(f"{site}\n{sysconfig.get_paths()['purelib']}\n")
    return archive, python


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """(the zip, a Python where its wheel is installed)."""
    return installed(tmp_path_factory.mktemp("gradescope"))


def gradescope_root(tmp_path: Path, archive: Path, modules: dict[str, str]) -> Path:
    """A folder laid out like /autograder, with the student's files in submission/."""
    root = tmp_path / "autograder"
    for name in ("source", "submission", "results"):
        (root / name).mkdir(parents=True)
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(root / "source")
        for info in zipped.infolist():  # zipfile does not restore permissions
            os.chmod(root / "source" / info.filename, info.external_attr >> 16 & 0o777)
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope's image build does
    os.chmod(root / "run_autograder", 0o755)
    for name, text in modules.items():
        (root / "submission" / name).write_text(text)
    return root


def run_autograder(root: Path, python: Path, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    env = {"PATH": os.environ["PATH"], "ATTNKIT_GRADESCOPE_ROOT": str(root), "ATTNKIT_PYTHON": str(python),
           "PYTHONPATH": str(REPO), "HOME": str(root)}  # PYTHONPATH names this checkout: isolated mode ignores it
    done = subprocess.run([str(root / "run_autograder")], cwd=cwd or root, env=env, capture_output=True, text=True,
                          timeout=300)
    results = root / "results" / "results.json"
    return done, json.loads(results.read_text()) if results.is_file() else {}


def modules_of(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in folder.glob("*.py")}


@pytest.mark.slow
def test_zip_layout(bundle):
    archive, python = bundle
    site = python.parents[2] / "site"
    with zipfile.ZipFile(archive) as zipped:
        names = zipped.namelist()
        modes = {info.filename: info.external_attr >> 16 for info in zipped.infolist()}
        setup = zipped.read("setup.sh").decode()
    assert {"setup.sh", "run_autograder"} <= set(names)  # at the root of the zip, as Gradescope requires
    assert all(modes[name] & stat.S_IXUSR for name in ("setup.sh", "run_autograder"))
    (wheel,) = [n for n in names if n.endswith(".whl")]
    assert f'pip install "./{wheel}"' in setup
    assert subprocess.run(["bash", "-n", "-c", setup]).returncode == 0
    assert (site / "solutions" / "attention.py").is_file()
    assert (site / "grader" / "checks" / "check_masking.py").is_file()
    assert (site / "attnkit" / "gradescope" / "results_schema.json").is_file()


@pytest.mark.slow
def test_what_attnkit_pack_writes_scores_full_marks(bundle, tmp_path):
    """The reference solutions as a student hands them in (``attnkit pack``'s zip, left packed as Gradescope does):
    every check passes, hidden ones included. (A folder of modules is graded by the tests below.)"""
    archive, python = bundle
    student = tmp_path / "student"
    shutil.copytree(SOLUTIONS, student / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    (student / ".venv" / "lib").mkdir(parents=True)
    (student / ".venv" / "lib" / "site.py").write_text("x = 1\n")
    from attnkit.pack import main as pack

    assert pack(student / "exercises", tmp_path / "submission.zip", out=io.StringIO()) == 0
    root = gradescope_root(tmp_path, archive, {})
    shutil.copyfile(tmp_path / "submission.zip", root / "submission" / "submission.zip")  # left packed
    done, results = run_autograder(root, python)
    assert done.returncode == 0, done.stdout + done.stderr
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == TOTAL
    assert sum(t["max_score"] for t in results["tests"]) == TOTAL
    assert {t["status"] for t in results["tests"]} == {"passed"}
    assert {t["visibility"] for t in results["tests"]} == {"visible", "after_published"}  # hidden checks after grades
    assert f"attnkit gradescope run: {TOTAL:g}/{TOTAL:g}" in done.stdout  # Gradescope's stdout log, for instructors
    assert "pictures:" not in done.stdout and "grades.csv" not in done.stdout  # nothing that does not apply there


@pytest.mark.slow
def test_run_from_inside_a_checkout_grades_with_the_bundle(tmp_path):
    """The documented local test, started in this checkout (whose attnkit grades every exercise), grades the
    bundle's subset course with the bundle's code, and its first line says so."""
    course = ("softmax", "masking")
    archive, python = installed(tmp_path, "--exercises", ",".join(course))
    points = curriculum.total_points(course)
    root = gradescope_root(tmp_path, archive, modules_of(SOLUTIONS))
    done, results = run_autograder(root, python, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("attnkit gradescope run: attnkit ") and f"from {tmp_path / 'site'};" in first, first
    assert first.endswith(f"course: {len(course)} exercises, {points:g} points"), first
    assert results["score"] == points == sum(t["max_score"] for t in results["tests"])
    assert {t["tags"][0] for t in results["tests"]} == set(course)
    assert {t["name"].split(":")[0] for t in results["tests"]} == set(course)
    assert f"attnkit gradescope run: {points:g}/{points:g}" in done.stdout


@pytest.mark.slow
def test_untouched_stubs_and_a_syntax_error_score_0(bundle, tmp_path):
    archive, python = bundle
    modules = modules_of(EXERCISES)
    modules["softmax.py"] = "import numpy as np\n\ndef softmax(x, axis=-1:\n    return x\n"
    root = gradescope_root(tmp_path, archive, modules)
    done, results = run_autograder(root, python)
    assert done.returncode == 0, done.stdout + done.stderr
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0
    softmax = [t for t in results["tests"] if t["name"].startswith("softmax:")]
    assert softmax and all("SyntaxError" in t["output"] for t in softmax)
    others = [t for t in results["tests"] if t["name"].startswith("masking:")]
    assert others and all(t["output"].startswith("not implemented yet") for t in others)
    assert {t["status"] for t in results["tests"]} == {"failed"}


def test_a_symlink_submission_is_refused_with_zero(tmp_path):
    """The same refusal as ``attnkit grade``: a link to a solution file scores 0, with the reason."""
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "softmax.py").symlink_to(SOLUTIONS / "softmax.py")
    log = io.StringIO()
    assert run(root, timeout=5, out=log) == 0, log.getvalue()
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0 and "symbolic link" in results["output"]


def test_a_zip_gradescope_left_packed_is_graded_as_a_zip(tmp_path):
    submission = tmp_path / "submission"
    submission.mkdir()
    assert lone_zip(submission) is None
    (submission / "work.zip").write_bytes(b"PK")
    assert lone_zip(submission) == submission / "work.zip"
    (submission / "softmax.py").write_text("")
    assert lone_zip(submission) is None  # unpacked files win


def test_no_submission_folder_writes_nothing(tmp_path, capsys):
    assert main(["run", "--root", str(tmp_path)]) == 2
    assert "no submission folder" in capsys.readouterr().out
    assert not (tmp_path / "results").exists()


def test_build_refuses_to_overwrite_and_non_zip_names(tmp_path, capsys):
    existing = tmp_path / "autograder.zip"
    existing.write_bytes(b"old")
    assert main(["build", "-o", str(existing)]) == 2
    assert capsys.readouterr().err.strip() == bundle_build.EXISTS.format(path=existing)
    assert existing.read_bytes() == b"old"
    assert main(["build", "-o", str(tmp_path / "autograder.tar")]) == 2
    assert "Gradescope takes a .zip" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["autograder.zip"]


def test_the_schema_is_the_documented_format():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    good = {"score": 44.0, "execution_time": 136, "output": "x", "output_format": "simple_format",
            "visibility": "after_due_date", "stdout_visibility": "visible", "extra_data": {},
            "tests": [{"score": 2.0, "max_score": 2.0, "status": "passed", "name": "n", "name_format": "text",
                       "number": "1.1", "output": "o", "output_format": "text", "tags": ["t"],
                       "visibility": "visible", "extra_data": {}}],
            "leaderboard": [{"name": "Accuracy", "value": 0.926}, {"name": "Time", "value": 15.1, "order": "asc"}]}
    jsonschema.validate(good, SCHEMA)
    jsonschema.validate({"tests": [{"score": 1}]}, SCHEMA)  # score on every test instead of the top level
    for bad in ({"output": "no score anywhere"}, {"score": 1, "visibility": "students"},
                {"score": 1, "tests": [{"score": 1, "status": "ok"}]}, {"score": "100"},
                {"score": 1, "tests": [{"score": 1, "max_points": 1}]}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, SCHEMA)
