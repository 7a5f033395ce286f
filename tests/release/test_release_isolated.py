"""The release works on its own: run in ``python -I -S`` with only the release and the dependencies on
``sys.path`` (``solutions`` cannot be imported), its checks score the stubs 0 and the reference full
marks, and every classic mistake is diagnosed exactly as the project's grader diagnoses it."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile

import pytest

from attnkit.cli import NOT_INSTALLED, VERBS
from attnkit.release.recording import FORMAT, INDEX_NAME, REDOWNLOAD
from grader import curriculum
from grader.mistakes import registry
from grader.mistakes.model import apply
from grader.runner import NOT_IMPLEMENTED_MESSAGE, discover, run_exercise
from grader.sandbox.host.inprocess import in_process
from tests.release.releasekit import CLI, SOLUTIONS, copy_modules, grade_in_release, isolated

pytestmark = pytest.mark.slow

PUBLIC = {(e, s.name): s.points for e in curriculum.ids() for s in discover(e) if s.visibility != "hidden"}
POINTS = sum(PUBLIC.values())  # the public checks' points: the release's total


# In process (the truth below) a mutant that writes into its arguments writes into the check's own arrays;
# in the sandboxed release it writes into copies: the two runs differ by construction.
WRITES_INTO_ARGUMENTS = {"softmax_modifies_input", "apply_mask_modifies_input"}


def mutants():
    """(mistake id, exercise, module, replacements) of every classic mistake's mutant."""
    return [(m.id, exercise, module, m.mutant_patch) for exercise, (module, found) in registry().items() for m in found
            if m.id not in WRITES_INTO_ARGUMENTS]


def test_stubs_score_zero_and_the_reference_full_marks(release, tmp_path):
    stubs, reference = grade_in_release(release, [(release / "exercises", []), (SOLUTIONS, [])], tmp_path)
    assert {(row[0], row[1]) for row in stubs} == set(PUBLIC)
    for _, name, status, points, _, _, message in stubs:
        assert (status, points) == ("not_implemented", 0), (name, status, message)
        assert message.startswith(NOT_IMPLEMENTED_MESSAGE)
    assert [(row[1], row[2]) for row in reference if row[2] != "passed"] == []
    assert sum(row[3] for row in reference) == POINTS


def test_every_classic_mistake_is_diagnosed_as_by_the_projects_grader(release, tmp_path):
    jobs, expected = [], []
    for number, (mistake, exercise, module, replacements) in enumerate(mutants()):
        folder = copy_modules(SOLUTIONS, tmp_path / f"patch{number}")
        (folder / f"{module}.py").write_text(apply((folder / f"{module}.py").read_text(), replacements, mistake))
        jobs.append((folder, [exercise]))
        truth = run_exercise(exercise, lambda e, folder=folder: in_process(folder, e), visibility="visible")
        expected.append([(c.name, c.status, c.points, c.mistake) for c in truth.checks])
    got = grade_in_release(release, jobs, tmp_path)
    for (mistake, *_), rows, truth in zip(mutants(), got, expected):
        assert [(r[1], r[2], r[3], r[5]) for r in rows] == truth, mistake
        assert "grader_error" not in {r[2] for r in rows}
    diagnosed = {r[5] for rows in got for r in rows}
    assert {"attention_no_scale", "apply_mask_large_negative", "tiled_no_causal_mask"} <= diagnosed


def test_attnkit_check_in_the_release(release, tmp_path):
    done = isolated(release, CLI, "check", "--impl", "exercises")
    assert done.returncode == 1, done.stderr
    assert f"0/{POINTS:g}" in done.stdout and "not implemented yet" in done.stdout
    student = copy_modules(SOLUTIONS, tmp_path / "mine")
    source = (student / "attention.py").read_text()
    (student / "attention.py").write_text(source.replace("scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores"))
    done = isolated(release, CLI, "check", "attention", "--impl", str(student))
    assert done.returncode == 1
    assert "looks like the scores were not divided by sqrt(d_k)" in done.stdout
    shutil.copyfile(SOLUTIONS / "attention.py", student / "attention.py")
    done = isolated(release, CLI, "check", "--impl", str(student))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{POINTS:g}/{POINTS:g}" in done.stdout


def test_show_gpt_in_the_release(release, tmp_path):
    """The student's own generate writes text with the shipped tiny GPT-2; the stubs give one "blocked by" line; the
    pictures that need the reference solutions say so; the README ends with the section."""
    from attnkit.show.errors import NOT_IN_RELEASE
    from grader import tiny_gpt

    done = isolated(release, CLI, "show", "gpt", "--impl", "exercises")
    assert done.returncode == 1 and done.stdout.startswith("attnkit show gpt: blocked by exercise sampling: not "
                                                           "implemented yet"), done.stdout + done.stderr
    done = isolated(release, CLI, "show", "gpt", "--impl", str(copy_modules(SOLUTIONS, tmp_path / "mine")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"greedy:  {tiny_gpt.load().card['greedy_sample']!r}" in done.stdout
    assert done.stdout.rstrip().endswith("your code wrote this.") and "Traceback" not in done.stderr
    done = isolated(release, CLI, "show", "attention")
    assert done.returncode == 2 and done.stderr.strip() == "attnkit show: " + NOT_IN_RELEASE.format(picture="attention")
    readme = (release / "README.md").read_text()
    assert readme.rstrip().endswith(f"{tiny_gpt.load().card['greedy_sample']}\n```\n\nWhen yours prints the same "
                                    "words, your code wrote this.")


def test_hint_quiz_and_the_verbs_that_are_not_there(release, tmp_path):
    home = {"ATTNKIT_HOME": str(tmp_path / "home")}
    done = isolated(release, CLI, "hint", "softmax", env=home)
    assert done.returncode == 0 and "hint 1/" in done.stdout
    course = json.loads((release / "grader" / "course.json").read_text())["id"]  # per-user state kept per release
    assert (tmp_path / "home" / "courses" / f"release-{course}" / "hints.json").is_file()
    answers = tmp_path / "answers.txt"
    answers.write_text("a\n1\nb\n0.5\n" * 3)
    done = isolated(release, CLI, "quiz", "-n", "6", "--seed", "4", "--answers", str(answers), env=home)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert isolated(release, CLI, "quiz", "validate", env=home).returncode == 0
    students = ("check", "watch", "hint", "pack", "quiz", "show")
    listed = isolated(release, CLI, "--help").stdout
    shown = {verb for verb in VERBS if f"\n    {verb} " in listed}
    assert shown == set(students), listed  # only the verbs the release has; no instructor verb
    for argv in (["grade", "class", "--out", "results"], ["release", "out"], ["gradescope", "build", "-o", "a.zip"]):
        done = isolated(release, CLI, *argv)
        assert done.returncode == 2
        assert done.stderr.strip() == NOT_INSTALLED.format(verb=argv[0], verbs=", ".join(students))


def test_what_pack_writes_is_what_grade_takes(release, tmp_path):
    student = tmp_path / "student"
    shutil.copytree(release, student, ignore=shutil.ignore_patterns("__pycache__"))
    for module in ("softmax", "masking"):
        shutil.copyfile(SOLUTIONS / f"{module}.py", student / "exercises" / f"{module}.py")
    for junk in (".venv/lib/site.py", "exercises/__pycache__/softmax.cpython-311.pyc", "exercises/notes.py",
                 "exercises/data.npy"):
        (student / junk).parent.mkdir(parents=True, exist_ok=True)
        (student / junk).write_bytes(b"x = 1\n")
    done = isolated(release, CLI, "pack", cwd=student)
    assert done.returncode == 0, done.stderr
    names = sorted(zipfile.ZipFile(student / "submission.zip").namelist())
    assert names == sorted(f"exercises/{e.id}.py" for e in curriculum.exercises())
    assert isolated(release, CLI, "pack", cwd=student).returncode == 2  # no silent overwrite
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copyfile(student / "submission.zip", klass / "ada.zip")
    from attnkit.grade import main as grade

    assert grade(klass, tmp_path / "graded", jobs=1, progress=False) == 0
    row = (tmp_path / "graded" / "grades.csv").read_text().splitlines()[1].split(",")
    assert row[0] == "ada" and float(row[1]) == sum(s.points for e in ("softmax", "masking") for s in discover(e))


def test_pytest_impl_in_the_release(release):
    code = CLI.replace("from attnkit.cli import main\nsys.exit(main(sys.argv[1:]))",
                       "import pytest\nsys.exit(pytest.main(sys.argv[1:]))")
    done = isolated(release, code, "--impl", str(SOLUTIONS), "-q", "-p", "no:cacheprovider")
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"attnkit score: {POINTS:g} / {POINTS:g} points" in done.stdout


def test_the_release_installs_without_the_solutions(release, tmp_path):
    source = tmp_path / "source"
    shutil.copytree(release, source)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "--quiet", "--wheel-dir", str(tmp_path / "wheels"), str(source)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = (tmp_path / "wheels").glob("attnkit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "grader/recorded/reference.bin" in names and "grader/recorded/reference.json" in names
    assert "grader/curriculum.yaml" in names and "quizzes/softmax.yaml" in names
    assert not [n for n in names if n.startswith(("solutions/", "exercises/"))]
    replayed = zipfile.ZipFile(wheel).read("grader/mistakes/attention.py").decode()
    assert "NO_SCALE = Mistake(" in replayed and "patch" not in replayed and "math.sqrt" not in replayed
    assert any(n.endswith("entry_points.txt") for n in names)


@pytest.mark.parametrize("damage", ["another format", "not JSON", "missing"])
def test_a_damaged_recording_is_one_line_naming_the_file(release, tmp_path, damage):
    """The recorded reference answers of a release that is damaged, or mixed with another version's files: attnkit
    check says which file and what to do, in one line, exit status 2 (it was a traceback)."""
    copy = shutil.copytree(release, tmp_path / "release")
    index = copy / "grader" / "recorded" / INDEX_NAME
    if damage == "another format":
        index.write_text(json.dumps({**json.loads(index.read_text(encoding="utf-8")), "format": FORMAT - 1}))
    elif damage == "not JSON":
        index.write_text("{", encoding="utf-8")
    else:
        index.unlink()
    done = isolated(copy, CLI, "check", "softmax")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"attnkit check: {index}: ") and line.endswith(f"({REDOWNLOAD})")
