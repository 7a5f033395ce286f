"""Unit tests for the sandbox fixes the hostile catalogue led to (the catalogue shows them end to end)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from grader import files
from grader.sandbox import wire
from grader.sandbox.host import proxy, workspace
from grader.sandbox.inside import runtime

HERE = Path(__file__).resolve().parent


def test_workspace_removes_its_folder_when_it_cannot_be_set_up(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "softmax.py").write_text("x = 1\n")

    def broken_copy(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(workspace, "copy_module", broken_copy)
    with pytest.raises(OSError, match="No space left"):
        workspace.Workspace(tmp_path / "modules")
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


def _frame(header: bytes, count: int = 0) -> bytes:
    body = wire.HEADER.pack(len(header), count) + header
    return wire.LENGTH.pack(len(body)) + body


@pytest.mark.parametrize("header, count", [
    (b"[" * 100_000 + b"]" * 100_000, 0),                                             # JSON nested too deep
    (json.dumps({"ok": True, "arrays": [["|S0", [1 << 40]]]}).encode(), 1),           # zero-size strings
    (json.dumps({"ok": True, "arrays": [["<f8", [-1]]]}).encode(), 1),                # negative shape
])
def test_malformed_frames_are_wire_errors(header, count):
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(_frame(header, count))
        with pytest.raises(wire.WireError):
            wire.Receiver(ours.recv_into).recv()


@pytest.mark.parametrize("node", [{"t": "handle", "id": "x", "type": "K"}, {"t": "array", "i": 5}, {"t": "list"},
                                  {"t": "py", "v": [1]}, {"t": "list", "items": [{"t": "list", "items": []}] * 2}])
def test_malformed_trees_are_wire_errors(node):
    deep = {"t": "list", "items": []}
    for _ in range(wire.MAX_DEPTH + 2):
        deep = {"t": "list", "items": [deep]}
    if node.get("items"):
        node = deep
    with pytest.raises(wire.WireError):
        wire.decode(node, [])


def test_an_array_is_sent_by_its_real_dtype_and_object_arrays_never_leave():
    class Dressed(np.ndarray):  # what a student's subclass may claim
        @property
        def dtype(self):
            return np.dtype(np.float64)

    ours, theirs = socket.socketpair()
    with ours, theirs:
        for liar in (np.zeros(3).astype(object).view(Dressed), np.zeros(2, dtype=[("a", "f8")])):
            with pytest.raises(TypeError, match="cannot be sent"):
                wire.send(theirs, {"ok": True}, [liar])
        sent = [np.arange(6.0).reshape(2, 3)[:, ::2], np.array(["ab", "c"]), np.array(True), np.zeros((2, 0))]
        wire.send(theirs, {"ok": True}, sent)  # non-contiguous, strings, 0-d and empty: copied or viewed as bytes
        header, arrays = wire.Receiver(ours.recv_into).recv()
        assert header == {"ok": True}
        for got, want in zip(arrays, sent):
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype and got.shape == want.shape


def test_error_fields_become_capped_strings():
    info = proxy.error_info({"type": ["x"], "message": list(range(10**6)), "where": {"a": 1}, "sibling": "../etc",
                             "import": "yes", "memory": True, "line": ["x"], "names": {"name": "x"}})
    assert info == {"type": "Error", "message": "", "where": "", "sibling": "", "line": "", "names": (),
                    "bad_value": False, "import": False, "not_implemented": False, "memory": True}
    assert len(proxy.error_info({"message": "x" * 10**6})["message"]) == proxy.ERROR_TEXT
    assert proxy.error_info("not a dict")["type"] == "Error"


def test_tree_removal_and_scan_do_not_recurse(tmp_path):
    fd = os.open(tmp_path, os.O_RDONLY)
    os.mkdir("top", dir_fd=fd)
    for _ in range(1500):  # deeper than the recursion limit, paths longer than PATH_MAX
        inner_name = "top" if _ == 0 else "d" * 100
        if _:
            os.mkdir(inner_name, dir_fd=fd)
        inner = os.open(inner_name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)
    found, too_deep = files.scan(tmp_path / "top", max_depth=3, max_entries=10)
    assert [f.name for f in found] == ["d" * 100, "d" * 100 + "/" + "d" * 100, "/".join(["d" * 100] * 3)]
    assert too_deep == ["/".join(["d" * 100] * 3)]
    assert files.remove(tmp_path / "top") and os.listdir(tmp_path) == []
    for count in range(12):
        (tmp_path / f"f{count}").write_text("")
    with pytest.raises(files.TreeTooLarge):
        files.scan(tmp_path, max_depth=3, max_entries=10)


SECCOMP_PROBE = """
import ctypes, json, sys
sys.path.insert(0, {sandbox!r})
import seccomp
installed = seccomp.deny()
libc = ctypes.CDLL(None, use_errno=True)
shm = libc.shmget(0, 4096, 0o1600)
shm_errno = ctypes.get_errno()
print(json.dumps({{"installed": installed, "shm": shm, "errno": shm_errno, "unshare": libc.unshare(0x08000000),
                   "pid": libc.getpid() > 0}}))
"""


@pytest.mark.skipif(not __import__("grader.sandbox.inside.seccomp", fromlist=["x"]).available(),
                    reason="Linux x86_64 only")
def test_seccomp_denies_sysv_ipc_and_namespaces():
    script = SECCOMP_PROBE.format(sandbox=str(Path(runtime.__file__).parent))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"installed": True, "shm": -1, "errno": 1, "unshare": -1, "pid": True}


def test_unpredictable_inputs_need_the_secret(tmp_path, monkeypatch):
    from grader.checks import secret

    def draw():
        return secret.unpredictable(np.random.default_rng(7)).standard_normal(3)

    monkeypatch.setattr(secret, "_words", None)
    assert np.array_equal(draw(), np.random.default_rng(7).standard_normal(3))  # check, release: as before
    secret.load(tmp_path / "state" / "secret")
    first = draw()
    assert not np.array_equal(first, np.random.default_rng(7).standard_normal(3))
    assert oct((tmp_path / "state" / "secret").stat().st_mode & 0o777) == oct(0o600)
    secret.load(tmp_path / "state" / "secret")
    assert np.array_equal(draw(), first)  # the same file, the same inputs: grades stay reproducible
    secret.load(tmp_path / "other")
    assert not np.array_equal(draw(), first)


def _words_after_load(path):
    from grader.checks import secret

    secret.load(path)
    return secret._words


def test_workers_starting_together_share_one_secret(tmp_path):
    """Eight workers making the secret at once all read the same complete one (it is linked into place)."""
    import multiprocessing

    for attempt in range(3):
        path = tmp_path / f"try{attempt}" / "secret"
        with multiprocessing.get_context("fork").Pool(8) as pool:
            words = pool.map(_words_after_load, [path] * 8)
        assert len(set(words)) == 1 and words[0] is not None
        assert sorted(p.name for p in path.parent.iterdir()) == ["secret"]  # no temporary file left


def test_shared_stdlib_copy_is_reused_only_when_trusted(tmp_path, monkeypatch):
    from grader.sandbox.host import preflight

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    first = Path(preflight.shared_copy())
    assert (first / "os.py").is_file() and not (first / "site-packages").exists()
    assert oct(first.stat().st_mode & 0o777) == oct(0o755)
    assert oct((first / "os.py").stat().st_mode & 0o777) == oct(0o644)
    assert Path(preflight.shared_copy()) == first  # made once
    os.chmod(first.parent, 0o777)  # anyone could have changed it: not used
    other = Path(preflight.shared_copy())
    assert other != first and (other / "os.py").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({first.parent.name, other.parent.name})


def test_capped_streams_keep_the_first_bytes_and_discard_the_rest(tmp_path):
    with open(tmp_path / "out.txt", "wb") as sink:
        stdout, stderr = runtime.capped_streams(sink.fileno(), 10)
        print("0123456", file=stdout)
        stderr.write("abcdef\n")
        print("x" * 10_000, file=stdout, flush=True)
        assert stdout.fileno() == sink.fileno() and not stdout.closed
    assert (tmp_path / "out.txt").read_bytes() == b"0123456\nab"
