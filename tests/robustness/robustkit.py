"""Shared helpers for the robustness tests: a small mixed class, the grading CLI, output snapshots,
and a watch on every process a grading run leaves behind (Linux: this process becomes a subreaper)."""
from __future__ import annotations

import ctypes
import difflib
import os
import shutil
import signal
import sys
import tempfile
import time
import zipfile
from contextlib import contextmanager
from pathlib import Path

from tests.grade.gradekit import copy_modules  # noqa: F401  (the robustness tests import it from here)

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
PR_SET_CHILD_SUBREAPER = 36
FUZZ_PROFILE = "attnkit-robustness"          # registered in conftest.py
FUZZ_PROFILE_ENV = "ATTNKIT_FUZZ_PROFILE"    # e.g. attnkit-robustness-deep
STRAY_GRACE_SECONDS = 15.0  # how long orphans get to exit by themselves before they count as strays


def fuzz(**changes):
    """The hypothesis settings of a fuzz test: the selected profile, with ``changes``."""
    from hypothesis import settings

    return settings(settings.get_profile(os.environ.get(FUZZ_PROFILE_ENV, FUZZ_PROFILE)), **changes)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}: the class fixture needs updating"
    path.write_text(text.replace(old, new, 1))


def build_class(root: Path) -> Path:
    """Eight submissions: the reference three ways (folder, exercises/ subfolder, zip), the stubs, two classic
    mistakes, half the exercises done, and a syntax error."""
    root.mkdir(parents=True)
    copy_modules(SOLUTIONS, root / "ref_folder")
    copy_modules(SOLUTIONS, root / "ref_nested" / "exercises")
    with zipfile.ZipFile(root / "ref_zip.zip", "w") as zipped:
        for path in sorted(SOLUTIONS.glob("*.py")):
            zipped.write(path, f"handin/exercises/{path.name}")
    copy_modules(EXERCISES, root / "stubs")
    axis = copy_modules(SOLUTIONS, root / "wrong_axis")
    _edit(axis / "softmax.py", "def softmax(x, axis=-1):", "def softmax(x, axis=-1):\n    axis = 0")
    unscaled = copy_modules(SOLUTIONS, root / "no_scale")
    _edit(unscaled / "attention.py", "scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores * 1.0")
    half = copy_modules(SOLUTIONS, root / "half_done")
    for name in ("multihead.py", "kv_cache.py", "tiled_attention.py"):
        shutil.copyfile(EXERCISES / name, half / name)
    broken = copy_modules(SOLUTIONS, root / "syntax_error")
    with open(broken / "masking.py", "a") as handle:
        handle.write("\ndef oops(:\n")
    return root


def grade_command(submissions: Path, out: Path, jobs: int = 2, *extra) -> list[str]:
    return [sys.executable, "-m", "attnkit.grade", str(submissions), "--out", str(out), "--jobs", str(jobs),
            "--timeout", "10", "--no-progress", "--no-pictures", *extra]


@contextmanager
def private_tmpdir():
    """A fresh temp dir for grading subprocesses, in the system temp dir (pytest's own tmp_path is 0700,
    which user nobody, whom student code runs as under root, may not pass through)."""
    folder = Path(tempfile.mkdtemp(prefix="attnkit-robustness-"))
    os.chmod(folder, 0o711)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def environment(tmpdir: Path) -> dict:
    """The grading subprocess's environment: its own TMPDIR, so what it leaves there is ours to see."""
    return dict(os.environ, TMPDIR=str(tmpdir), PYTHONDONTWRITEBYTECODE="1")


def snapshot(out: Path) -> dict[str, bytes]:
    """Every file under ``out`` (records included) by relative path."""
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


def differences(got: dict[str, bytes], expected: dict[str, bytes]) -> list[str]:
    """What differs between two snapshots; a file that differs is shown as the first lines of its diff (a failure
    seen once on a busy machine says what changed, not only where)."""
    problems = [f"missing {name}" for name in sorted(set(expected) - set(got))]
    problems += [f"unexpected {name}" for name in sorted(set(got) - set(expected))]
    problems += [f"differs: {name}{_diff(got[name], expected[name])}" for name in sorted(set(got) & set(expected))
                 if got[name] != expected[name]]
    return problems


def _diff(got: bytes, expected: bytes, lines: int = 12) -> str:
    """The first ``lines`` lines of a unified diff of two text files (nothing for binary ones)."""
    try:
        ours, theirs = got.decode().splitlines(), expected.decode().splitlines()
    except UnicodeDecodeError:
        return ""
    shown = list(difflib.unified_diff(theirs, ours, "expected", "got", n=0, lineterm=""))[:lines]
    return "".join(f"\n    {line[:300]}" for line in shown)


def _children_of(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(entry))
    return found


def _describe(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"{pid}: (gone)"
    return f"{pid}: {command[:200]}"


class Reaper:
    """Makes this process the subreaper of everything started inside ``with reaper():``, so an orphan left
    by a killed grading run (forkserver, worker, sandbox zygote or child) becomes our child and is seen."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.baseline: set[int] = set()
        self.strays: list[str] = []

    @contextmanager
    def __call__(self):
        self.baseline = _children_of(os.getpid())
        if self.libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
        try:
            yield self
        finally:
            self.libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
            self.settle()

    def settle(self) -> list[str]:
        """Wait (a bounded time) for every orphan to exit and reap it; kill and record the ones that do not."""
        deadline = time.monotonic() + STRAY_GRACE_SECONDS
        while True:
            pending = _children_of(os.getpid()) - self.baseline
            for pid in list(pending):
                try:
                    if os.waitpid(pid, os.WNOHANG)[0] == pid:
                        pending.discard(pid)
                except ChildProcessError:
                    pending.discard(pid)
            if not pending:
                return self.strays
            if time.monotonic() > deadline:
                for pid in sorted(pending):
                    self.strays.append(_describe(pid))
                    for kill in (os.killpg, os.kill):
                        try:
                            kill(pid, signal.SIGKILL)
                        except OSError:
                            pass
                    try:
                        os.waitpid(pid, 0)
                    except ChildProcessError:
                        pass
                return self.strays
            time.sleep(0.01)


def temp_leftovers(tmpdir: Path) -> list[str]:
    return sorted(p.relative_to(tmpdir).as_posix() for p in tmpdir.rglob("*"))


def tmp_files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.name.endswith(".tmp"))
