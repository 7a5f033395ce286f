"""``attnkit pack``: the hand-in zip holds the exercise modules and nothing else, and grade takes it."""
import io
import shutil
import zipfile
from pathlib import Path

from attnkit import cli, pack
from grader import curriculum
from grader.runner import discover

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(f"exercises/{e.id}.py" for e in curriculum.exercises())


def _student(tmp_path) -> Path:
    """A student's folder: finished solutions in exercises/, and the clutter a real folder has."""
    folder = tmp_path / "mine"
    shutil.copytree(ROOT / "solutions", folder / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    for junk in (".venv/lib/python3/site.py", "exercises/__pycache__/softmax.cpython-311.pyc",
                 "exercises/scratch.py", "exercises/.notes.md", "README.md"):
        (folder / junk).parent.mkdir(parents=True, exist_ok=True)
        (folder / junk).write_text("x = 1\n")
    return folder


def test_the_zip_holds_exactly_the_modules_and_grade_takes_it(tmp_path):
    folder = _student(tmp_path)
    out = io.StringIO()
    assert pack.main(folder / "exercises", tmp_path / "ada.zip", out=out) == 0
    assert sorted(zipfile.ZipFile(tmp_path / "ada.zip").namelist()) == MODULES
    assert f"{len(MODULES)} of {len(MODULES)} exercise modules" in out.getvalue()
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copyfile(tmp_path / "ada.zip", klass / "ada.zip")
    from attnkit.grade import main as grade

    assert grade(klass, tmp_path / "graded", jobs=1, progress=False, stdout=io.StringIO()) == 0
    row = (tmp_path / "graded" / "grades.csv").read_text().splitlines()[1].split(",")
    total = sum(s.points for e in curriculum.ids() for s in discover(e))
    assert row[0] == "ada" and float(row[1]) == total


def test_the_same_modules_give_the_same_bytes(tmp_path):
    folder = _student(tmp_path)
    assert pack.main(folder, tmp_path / "a.zip", out=io.StringIO()) == 0  # the folder holding exercises/ works too
    assert pack.main(folder / "exercises", tmp_path / "b.zip", out=io.StringIO()) == 0
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


def test_refusals(tmp_path, capsys):
    folder = _student(tmp_path)
    (tmp_path / "taken.zip").write_bytes(b"mine")
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        ([tmp_path / "nowhere", tmp_path / "x.zip"], "no folder"),
        ([folder / "exercises", tmp_path / "taken.zip"], "already exists; pass --force"),
        ([folder / "exercises", tmp_path / "x.tar"], "the hand-in is a .zip"),
        ([folder / "exercises", folder / "exercises" / "in.zip"], "is inside"),
        ([empty, tmp_path / "x.zip"], "holds none of the exercise modules"),
        ([folder / "exercises", tmp_path / "no" / "such" / "x.zip"], "cannot write"),
    ]
    for args, message in cases:
        assert pack.main(*args, out=io.StringIO()) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("attnkit pack: ") and message in err and "Traceback" not in err, err
    assert (tmp_path / "taken.zip").read_bytes() == b"mine"
    assert pack.main(folder / "exercises", tmp_path / "taken.zip", force=True, out=io.StringIO()) == 0


def test_missing_modules_are_named_and_the_cli_runs_it(tmp_path, capsys, monkeypatch):
    folder = _student(tmp_path)
    (folder / "exercises" / "gqa.py").unlink()
    monkeypatch.chdir(folder)
    assert cli.main(["pack"]) == 0
    assert "missing: gqa" in capsys.readouterr().out
    assert "exercises/gqa.py" not in zipfile.ZipFile(folder / "submission.zip").namelist()


def test_pack_names_broken_modules_and_stubs_and_still_writes(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(ROOT / "exercises", folder / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    for module in ("softmax", "masking", "attention"):
        shutil.copyfile(ROOT / "solutions" / f"{module}.py", folder / "exercises" / f"{module}.py")
    with open(folder / "exercises" / "masking.py", "a") as handle:
        handle.write("\ndef broken(:\n")
    out = io.StringIO()
    assert pack.main(folder / "exercises", tmp_path / "ada.zip", out=out) == 0
    assert sorted(zipfile.ZipFile(tmp_path / "ada.zip").namelist()) == MODULES  # written all the same
    lines = out.getvalue().splitlines()
    assert any(line.startswith("  masking.py does not import") and "SyntaxError" in line for line in lines)
    assert not any(line.startswith(("  softmax.py", "  attention.py")) for line in lines)  # attention only imports it
    stub = "  kv_cache.py still raises the stub's NotImplementedError in KVCache.__init__, KVCache.append"
    assert any(line.startswith(stub) for line in lines)
    assert lines[-1] == pack.NOT_READY


def test_pack_of_finished_work_says_hand_it_in(tmp_path):
    out = io.StringIO()
    assert pack.main(_student(tmp_path) / "exercises", tmp_path / "ada.zip", out=out) == 0
    assert out.getvalue().splitlines()[1:] == [pack.READY]


def test_stub_functions_read_the_source_only():
    from attnkit.pack.health import stub_functions

    source = ("class C:\n    def f(self):\n        raise NotImplementedError('implement C.f: ...')\n"
              "def g():\n    raise NotImplementedError('not for this dtype')\ndef h(:\n")
    assert stub_functions(source) == ()  # a syntax error: no stubs claimed (import reports it)
    assert stub_functions(source.replace("def h(:\n", "")) == ("C.f",)  # the student's own NotImplementedError is not
