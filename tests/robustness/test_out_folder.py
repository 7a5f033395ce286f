"""A full disk, an unwritable output folder or an unusable temp dir: one clear line, exit 2, nothing graded.

Real file systems where the machine allows it: a tiny tmpfs or a read-only bind mount inside a private
mount namespace (``unshare``; root, or unprivileged user namespaces), which vanishes with the process.
Everywhere: the file-size limit (RLIMIT_FSIZE, the same EFBIG a quota gives) and a patched free-space
reading. tests/grade/test_grade_cli.py has the output folder below a plain file and the chmod case.
"""
from __future__ import annotations

import errno
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

import pytest

from attnkit.grade import main, summary
from attnkit.grade.steps import find as run  # the class step that refuses what would stop the run
from attnkit.grade.steps.gradebook import SUMMARY_UNWRITABLE
from tests.robustness.robustkit import SOLUTIONS, build_class, copy_modules, environment, grade_command, private_tmpdir

FIELD = re.compile(r"\{(\w+)\}")


def message_pattern(template: str, **known) -> re.Pattern:
    """A regex for ``template`` with ``known`` fields filled in and any other field matching anything."""
    parts, position = [], 0
    for field in FIELD.finditer(template):
        parts.append(re.escape(template[position:field.start()]))
        name = field.group(1)
        parts.append(re.escape(str(known[name])) if name in known else ".+?")
        position = field.end()
    parts.append(re.escape(template[position:]))
    return re.compile("".join(parts))


def assert_refused(result, template: str, **known) -> None:
    """Exit 2, one line naming the folder with what to do, no traceback, nothing graded."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("attnkit grade: ")
    assert message_pattern(template, **known).search(lines[0]), lines[0]
    assert "nothing was graded" in lines[0]


@pytest.fixture(scope="module")
def submissions(tmp_path_factory) -> Path:
    return build_class(tmp_path_factory.mktemp("outfolder") / "class")


@lru_cache(maxsize=1)
def unshare_prefix() -> tuple[str, ...] | None:
    """``unshare`` arguments giving a private mount namespace where we may mount, or None."""
    if shutil.which("unshare") is None or not sys.platform.startswith("linux"):
        return None
    prefix = ("unshare", "--mount") if os.geteuid() == 0 else ("unshare", "--mount", "--map-root-user")
    point = tempfile.mkdtemp(prefix="attnkit-mount-probe-")
    try:
        probe = subprocess.run([*prefix, "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", point],
                               capture_output=True, timeout=30)
    finally:
        os.rmdir(point)
    return prefix if probe.returncode == 0 else None


def in_namespace(script: str, env: dict) -> subprocess.CompletedProcess:
    prefix = unshare_prefix()
    if prefix is None:
        pytest.skip("no private mount namespace here (unshare needs root or user namespaces)")
    return subprocess.run([*prefix, "sh", "-c", script], capture_output=True, text=True, env=env, timeout=120)


def tmpfs_then_grade(mount: Path, size: str, leave: int, submissions: Path, out: Path) -> str:
    """Mount a tmpfs of ``size`` on ``mount``, fill it but ``leave`` bytes, then run the grader."""
    fill = (f"head -c $(( $(df -k --output=avail {mount} | tail -1) * 1024 - {leave} )) /dev/zero > {mount}/fill"
            if leave else f"cat /dev/zero > {mount}/fill 2>/dev/null")
    grade = " ".join(shlex.quote(part) for part in grade_command(submissions, out))
    return f"mount -t tmpfs -o size={size} tmpfs {mount} && {{ {fill}; true; }} && exec {grade}"


def test_full_disk_is_refused_before_grading(submissions, tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    out = mount / "results"
    with private_tmpdir() as tmpdir:
        result = in_namespace(tmpfs_then_grade(mount, "256k", 0, submissions, out), environment(tmpdir))
    assert_refused(result, run.OUT_FULL, out=out)
    assert "No space left on device" in result.stderr
    assert not out.exists()  # the tmpfs went away with the namespace; the folder underneath is untouched


def test_too_little_room_for_the_class_is_refused(submissions, tmp_path):
    """Room for the probe, not for eight students' results: refused up front, not half-way through."""
    mount = tmp_path / "disk"
    mount.mkdir()
    out = mount / "results"
    with private_tmpdir() as tmpdir:
        result = in_namespace(tmpfs_then_grade(mount, "2m", 256 << 10, submissions, out), environment(tmpdir))
    assert_refused(result, run.OUT_TOO_SMALL, out=out, count=8)


def test_read_only_output_folder_is_refused(submissions, tmp_path):
    """Root ignores permission bits; a read-only mount stops even root."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    out = folder / "results"
    grade = " ".join(shlex.quote(part) for part in grade_command(submissions, out))
    script = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && exec {grade}"
    with private_tmpdir() as tmpdir:
        result = in_namespace(script, environment(tmpdir))
    assert_refused(result, run.OUT_UNWRITABLE, out=out)
    assert "Read-only file system" in result.stderr
    assert not out.exists()


def _limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # over the limit, writes fail with EFBIG instead of a kill
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 10, 16 << 10))


def test_file_size_limit_is_refused_before_grading(submissions, tmp_path):
    """A write that fails half-way (here RLIMIT_FSIZE: EFBIG, as a quota would) is caught by the probe."""
    out = tmp_path / "results"
    with private_tmpdir() as tmpdir:
        result = subprocess.run(grade_command(submissions, out), capture_output=True, text=True, timeout=120,
                                env=environment(tmpdir), preexec_fn=_limit_file_size)
    assert_refused(result, run.OUT_FULL, out=out)
    assert os.strerror(errno.EFBIG) in result.stderr
    assert sorted(p.name for p in out.rglob("*")) == [".attnkit"]  # the probe is gone too


def test_untraversable_temp_dir_is_refused_as_root(submissions, tmp_path):
    """As root, student code runs as nobody, who must pass through every folder above its workspace."""
    if os.geteuid() != 0:
        pytest.skip("only root drops the children to another user")
    private = tmp_path / "private-tmp"
    private.mkdir(mode=0o700)
    out = tmp_path / "results"
    result = subprocess.run(grade_command(submissions, out), capture_output=True, text=True, timeout=120,
                            env=environment(private))
    assert_refused(result, run.TEMP_UNREACHABLE, tmp=private.resolve(), user="nobody")
    assert list(private.iterdir()) == []


def test_temp_dir_failing_is_refused(submissions, tmp_path, monkeypatch, capsys):
    def no_room():
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(run.scratch, "root", no_room)
    assert main(submissions, tmp_path / "results", jobs=1, progress=False) == 2
    captured = capsys.readouterr()
    assert message_pattern(run.TEMP_UNWRITABLE, reason=os.strerror(errno.EROFS)).search(captured.err), captured.err
    assert captured.out == ""


def test_low_free_space_reading_is_refused(submissions, tmp_path, monkeypatch, capsys):
    free = 300 << 10
    monkeypatch.setattr(run.shutil, "disk_usage", lambda path: SimpleNamespace(total=1 << 30, used=(1 << 30) - free,
                                                                                free=free))
    out = tmp_path / "results"
    assert main(submissions, out, jobs=1, progress=False) == 2
    captured = capsys.readouterr()
    assert message_pattern(run.OUT_TOO_SMALL, out=out, free="300 KiB", count=8).search(captured.err), captured.err
    assert captured.out == "" and sorted(p.name for p in out.rglob("*")) == [".attnkit"]


@pytest.mark.parametrize("name", run.CLASS_FILES)
def test_class_file_name_taken_by_a_folder_is_refused(submissions, tmp_path, capsys, name):
    """Otherwise the whole class would be graded and the run would crash writing grades.csv at the end."""
    out = tmp_path / "results"
    (out / name).mkdir(parents=True)
    assert main(submissions, out, jobs=1, progress=False) == 2
    captured = capsys.readouterr()
    assert message_pattern(run.OUT_BLOCKED, path=out / name, name=name).search(captured.err), captured.err
    assert not list((out / ".attnkit").glob("*.json"))


def test_class_files_failing_after_grading_keep_the_records(tmp_path, monkeypatch, capsys):
    """A disk filling up during the run: the graded students stay saved, the message says to re-run."""
    submissions = tmp_path / "class"
    copy_modules(SOLUTIONS, submissions / "only")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "results" / "grades.csv"))

    monkeypatch.setattr(summary, "write_all", full)
    out = tmp_path / "results"
    status = main(submissions, out, jobs=1, progress=False)
    captured = capsys.readouterr()
    assert status == 1
    assert "Traceback" not in captured.err
    assert message_pattern(SUMMARY_UNWRITABLE, out=out, records=out / ".attnkit").search(captured.err), captured.err
    assert (out / ".attnkit" / "only.json").is_file() and (out / "only.json").is_file()
