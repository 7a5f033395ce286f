"""Unit tests for the sandbox fixes the hostile catalogue led to (the catalogue shows them end to end)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader.sandbox import child, runtime

HERE = Path(__file__).resolve().parent


def test_workspace_removes_its_folder_when_it_cannot_be_set_up(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "softmax.py").write_text("x = 1\n")

    def broken_copy(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(child, "copy_module", broken_copy)
    with pytest.raises(OSError, match="No space left"):
        child.Workspace(tmp_path / "modules")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["modules"]


def test_safe_text_survives_a_hostile_str():
    class Evil(BaseException):
        def __str__(self):
            raise Evil()

        __repr__ = __str__

    assert runtime.safe_text(Evil()) == "(its message could not be read)"
    assert runtime.safe_text(Evil(), repr) == "(its message could not be read)"
    assert runtime.safe_text(ValueError("plain")) == "plain"
    described = runtime.Runtime(str(HERE)).describe_error(Evil(), "positional")
    assert described["type"] == "Evil" and described["message"] == "(its message could not be read)"


CENSUS = """
import ctypes, json, os, subprocess, sys, time
sys.path.insert(0, {here!r})
import graded_run
ctypes.CDLL(None).prctl(graded_run.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
if os.fork() == 0:            # double fork + setsid: the grandchild leaves our session
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)
    os._exit(0)
outsider = subprocess.Popen(["sleep", "60"], cwd={run_root!r}, start_new_session=True)
time.sleep(0.5)
found = graded_run.strays({run_root!r}, set())
by_cwd = graded_run.under_run_root({run_root!r})
for pid in found | by_cwd:
    os.kill(pid, 9)
print(json.dumps({{"found": len(found), "outsider_by_cwd": outsider.pid in by_cwd}}))
"""


def test_census_sees_a_detached_grandchild(tmp_path):
    """The process census of graded_run.py would catch what the catalogue says never survives."""
    script = CENSUS.format(here=str(HERE), run_root=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"found": 2, "outsider_by_cwd": True}  # the grandchild and the outsider
    assert not os.listdir(tmp_path)
