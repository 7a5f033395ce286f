"""The grading run's temporary folder: what a killed run leaves is removed by the next, a living run's never."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from attnkit.grade import scratch

HOLDER = """
import sys, tempfile, time
tempfile.tempdir = sys.argv[1]
from attnkit.grade import scratch
print(scratch.root(), flush=True)
time.sleep(300)
"""


@pytest.fixture
def base(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(scratch, "_root", None)
    return tmp_path


def test_killed_owner_is_swept_living_owner_is_not(base):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(base)], stdout=subprocess.PIPE, text=True)
    try:
        folder = base / os.path.basename(holder.stdout.readline().strip())
        assert folder.is_dir() and (folder / scratch.OWNER).is_file()
        (folder / "attnkit-worker-x").mkdir()
        assert scratch.sweep(base) == 0 and folder.is_dir()  # its owner lives
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        assert scratch.sweep(base) == 1 and not folder.exists()
    finally:
        holder.kill()
        holder.wait()


def test_killed_before_locking(base):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = base / f"{scratch.PREFIX}{dead.pid}-aaaa"      # made, then killed before ``owner``
    orphan.mkdir()
    being_made = base / f"{scratch.PREFIX}{os.getpid()}-bbbb"  # a living process is making it
    being_made.mkdir()
    old_style = base / f"{scratch.PREFIX}cccc"                 # no pid, no owner: left alone for a while
    old_style.mkdir()
    assert scratch.sweep(base) == 1
    assert not orphan.exists() and being_made.is_dir() and old_style.is_dir()
    past = time.time() - 2 * scratch.CREATING_GRACE_SECONDS
    os.utime(old_style, (past, past))
    assert scratch.sweep(base) == 1 and not old_style.exists()


def test_own_folder_and_other_names_are_kept(base):
    own = scratch.root()
    assert own.parent == base and own.name.startswith(f"{scratch.PREFIX}{os.getpid()}-")
    assert scratch.root() == own  # one per process
    (base / "attnkit-worker-zzz").mkdir()                       # not ours to judge
    (base / f"{scratch.PREFIX}link").symlink_to(own)            # never followed
    assert scratch.sweep(base) == 0
    assert own.is_dir() and (base / "attnkit-worker-zzz").is_dir()
    assert oct(own.stat().st_mode & 0o777) == oct(0o711)     # children (user nobody) pass through


def test_sweep_removes_a_deep_tree_and_survives_what_it_cannot(base, monkeypatch):
    """A killed run left 1,100 nested folders (a hostile child's scratch): the next run removes them, and a
    folder that cannot be removed is left for later instead of stopping the run."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = base / f"{scratch.PREFIX}{dead.pid}-deep"
    orphan.mkdir()
    fd = os.open(orphan, os.O_RDONLY)
    for _ in range(1100):
        os.mkdir("d" * 100, dir_fd=fd)
        inner = os.open("d" * 100, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)
    stuck = base / f"{scratch.PREFIX}{dead.pid}-stuck"
    stuck.mkdir()
    real_remove = scratch.files.remove

    def remove(path):
        if path == stuck:
            raise RuntimeError("something unexpected")
        return real_remove(path)

    monkeypatch.setattr(scratch.files, "remove", remove)
    assert scratch.sweep(base) == 1
    assert not orphan.exists() and stuck.is_dir()
