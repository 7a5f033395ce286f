"""Every file the kit writes goes through ``grader.atomic``: whole or not at all; durable files are synced, caches
(``durable=False``) are not."""
import os

import pytest

from grader import atomic


@pytest.mark.parametrize("durable", [True, False])
def test_a_write_is_whole_and_synced_only_when_durable(tmp_path, monkeypatch, durable):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    atomic.write_bytes(path, b"new contents", durable=durable)
    assert path.read_bytes() == b"new contents" and oct(path.stat().st_mode & 0o777) == "0o644"
    assert len(synced) == (2 if durable else 0)   # the file and its folder
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")

    def refuse(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_bytes(path, b"new", durable=False)
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["out.bin"]
