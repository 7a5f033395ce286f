"""``attnkit show``: a user error is one clear line on stderr, exit status 2, no traceback, no file."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from attnkit.show import errors
from attnkit.show.tokens import RULE
from tests.show.showkit import show

REPO = Path(__file__).resolve().parents[2]


def _refused(run, message: str) -> None:
    assert run.status == 2
    assert run.out == ""
    assert run.err == f"attnkit show: {message}\n"
    assert "Traceback" not in run.err


def test_empty_text():
    _refused(show("attention", "--text", "   "), errors.EMPTY_TEXT.format(text="   "))
    _refused(show("attention", "--text", ""), errors.EMPTY_TEXT.format(text=""))


def test_heads_must_divide_d_model():
    run = show("attention", "--heads", 3, "--d-model", 16)
    _refused(run, errors.HEADS_DO_NOT_DIVIDE.format(heads=3, d_model=16, choices="1, 2, 4, 8, 16"))


def test_too_many_tokens_and_too_large_sizes():
    _refused(show("attention", "--text", "a " * 41), errors.TOO_MANY_TOKENS.format(count=41, limit=40))
    _refused(show("attention", "--heads", 32, "--d-model", 64), errors.TOO_LARGE.format(option="--heads", value=32,
                                                                                        limit=16))
    _refused(show("positional", "--seq-len", 5000), errors.TOO_LARGE.format(option="--seq-len", value=5000, limit=2000))


def test_bad_numbers_are_usage_errors():
    for argv in (("attention", "--heads", 0), ("attention", "--heads", "two"), ("positional", "--d-model", -4),
                 ("positional", "--dims", "x"), ("attention", "--bogus")):
        run = show(*argv)
        assert run.status == 2 and run.err.startswith("attnkit show: ") and "usage: attnkit show" in run.err, argv
        assert "Traceback" not in run.err


def test_dims_outside_the_encoding():
    _refused(show("positional", "--d-model", 8, "--dims", 1, 8), errors.DIMS_OUT_OF_RANGE.format(dim=8, d_model=8,
                                                                                                 last=7))


def test_unwritable_output_paths(tmp_path):
    missing = tmp_path / "no" / "such" / "attn.png"
    _refused(show("attention", "-o", missing), errors.OUTPUT_NO_FOLDER.format(path=missing, folder=missing.parent))
    _refused(show("attention", "-o", tmp_path), errors.OUTPUT_IS_FOLDER.format(path=tmp_path,
                                                                               example=tmp_path / "picture.png"))
    _refused(show("positional", "-o", tmp_path / "pe.jpg"), errors.OUTPUT_NOT_PNG.format(path=tmp_path / "pe.jpg"))
    a_file = tmp_path / "file"
    a_file.write_text("not a folder")
    under_file = a_file / "attn.png"
    _refused(show("attention", "-o", under_file), errors.OUTPUT_NO_FOLDER.format(path=under_file, folder=a_file))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_write_failure_leaves_no_partial_file(tmp_path, monkeypatch):
    """A write that fails half-way (disk full) is reported and leaves neither the PNG nor a temporary file."""
    pytest.importorskip("matplotlib")
    from grader import atomic

    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode: _FailingFile(fd))
    out = tmp_path / "attn.png"
    _refused(show("attention", "--text", "a b", "--heads", 1, "-o", out),
             errors.OUTPUT_NOT_WRITABLE.format(path=out, reason="No space left on device"))
    assert list(tmp_path.iterdir()) == []


class _FailingFile:
    def __init__(self, fd):
        self.fd = fd

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.close(self.fd)
        return False

    def write(self, data):
        raise OSError(28, "No space left on device")


def test_help_states_the_tokenizer_rule():
    run = show("attention", "--help")
    assert run.status == 0
    assert " ".join(RULE.split()[:6]) in " ".join(run.out.split())
    top = show()
    assert top.status == 0 and "attention" in top.out and "positional" in top.out


def test_cli_subprocess_has_no_traceback(tmp_path):
    """Through the installed entry point, as a user runs it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-m", "attnkit", "show", "attention", "--heads", "5"],
                            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith("attnkit show: --heads 5 does not divide --d-model 16")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_without_the_reference_solutions(monkeypatch):
    """An installation without the `solutions` package (such as a student release) is told so plainly."""
    for name in ("solutions", "solutions.masking", "solutions.multihead", "solutions.positional"):
        monkeypatch.setitem(sys.modules, name, None)
    _refused(show("attention"), errors.NO_SOLUTIONS)
    _refused(show("positional"), errors.NO_SOLUTIONS)
