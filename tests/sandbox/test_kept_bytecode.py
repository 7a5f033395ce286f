"""The bytecode of a student's modules kept between ``attnkit check`` runs (``grader/sandbox/host/kept_bytecode.py``):
used only for the very source it was made from, never read beyond its header by the trusted side, never kept by
``attnkit grade``."""
import importlib.util
import io
import os
import shutil
from pathlib import Path

import pytest

from attnkit import check
from grader.sandbox import Limits, Sandbox
from grader.sandbox.host import kept_bytecode as kb

ROOT = Path(__file__).resolve().parents[2]


def _pyc(source: bytes, mtime: int = kb.SOURCE_MTIME, magic: bytes = importlib.util.MAGIC_NUMBER) -> bytes:
    return magic + bytes(4) + mtime.to_bytes(4, "little") + len(source).to_bytes(4, "little") + b"code"


def test_only_bytecode_of_this_format_time_and_size_matches():
    source = b"x = 1\n"
    assert kb.matches(_pyc(source), source)
    assert not kb.matches(_pyc(source, mtime=kb.SOURCE_MTIME + 1), source)
    assert not kb.matches(_pyc(source, magic=b"\0\0\r\n"), source)
    assert not kb.matches(_pyc(source), source + b"#")   # another size
    assert not kb.matches(_pyc(source)[:16], source)     # a header alone
    assert kb.key(source) != kb.key(source + b"#") and len(kb.key(source)) == 32


def _session_files(tmp_path: Path):
    modules, workspace = tmp_path / "exercises", tmp_path / "workspace"
    modules.mkdir()
    (workspace / "submission").mkdir(parents=True)
    prefix = workspace / "scratch" / "pycache"
    return modules, workspace / "submission", prefix


def test_kept_then_placed_for_the_same_source_only(tmp_path):
    modules, submission, prefix = _session_files(tmp_path)
    for name, text in (("a.py", b"A = 1\n"), ("b.py", b"B = 2\n")):
        (modules / name).write_bytes(text)
        (submission / name).write_bytes(text)
        written = kb.child_path(prefix, submission / name)
        written.parent.mkdir(parents=True, exist_ok=True)
        written.write_bytes(_pyc(text))
    assert kb.keep(modules, submission, prefix) == 2
    assert kb.keep(modules, submission, prefix) == 0   # the same bytes: nothing written again
    shutil.rmtree(prefix)
    (submission / "b.py").write_bytes(b"B = 3\n")     # the student changed b.py: same size, another source
    assert kb.place(modules, submission, prefix, None) == {"a.py"}
    assert kb.keep(modules, submission, prefix, placed={"a.py"}) == 0   # b.py's bytecode was never written
    assert kb.child_path(prefix, submission / "a.py").read_bytes() == _pyc(b"A = 1\n")
    assert not kb.child_path(prefix, submission / "b.py").exists()


def test_a_childs_file_that_is_not_its_bytecode_is_not_kept(tmp_path):
    modules, submission, prefix = _session_files(tmp_path)
    text = b"A = 1\n"
    (modules / "a.py").write_bytes(text)
    (submission / "a.py").write_bytes(text)
    written = kb.child_path(prefix, submission / "a.py")
    written.parent.mkdir(parents=True)
    written.write_bytes(_pyc(text, mtime=123))         # another time: not a copy's bytecode
    assert kb.keep(modules, submission, prefix) == 0
    written.unlink()
    os.mkfifo(written)                                 # never read: not a regular file
    assert kb.keep(modules, submission, prefix) == 0
    written.unlink()
    os.symlink(modules / "a.py", written)              # never followed
    assert kb.keep(modules, submission, prefix) == 0
    assert not list(modules.rglob("*.attnkit.*"))


@pytest.fixture
def exercises(tmp_path):
    target = tmp_path / "exercises"
    shutil.copytree(ROOT / "solutions", target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _check(folder: Path, *names: str) -> str:
    out = io.StringIO()
    check.main(list(names), folder, timeout=10, out=out)
    return out.getvalue()


def test_a_second_check_uses_the_kept_bytecode_and_an_edit_is_checked_as_written(exercises):
    first = _check(exercises, "softmax")
    kept = sorted(p.name.split(".")[0] for p in (exercises / "__pycache__").glob("*.attnkit.*.pyc"))
    assert kept == ["softmax"]
    assert "softmax" in first and "FAIL" not in first
    source = (exercises / "softmax.py").read_text()
    broken = source.replace("np.exp(x - row_max)", "np.exp(x + row_max)", 1)   # the same size, another source
    assert broken != source and len(broken) == len(source)
    (exercises / "softmax.py").write_text(broken)     # within the same second as the run that kept it
    assert "FAIL" in _check(exercises, "softmax")       # the kept bytecode of the old source is not used
    assert len(list((exercises / "__pycache__").glob("softmax.attnkit.*.pyc"))) == 1   # the old one replaced


def test_grade_keeps_no_bytecode_in_a_submission(exercises):
    with Sandbox(Limits(timeout=10)) as sandbox, sandbox.session(exercises) as session:
        assert session.import_failure("softmax", "softmax") is None
    assert not list(exercises.rglob("*.attnkit.*"))
