"""A submission's private workspace: a copy of its modules that children read, a scratch dir they write.

Workspaces are made under the temp dir as ``attnkit-XXXXXXXX/{submission,scratch}``; those private
paths show in the messages of a crashed child and are removed from results by :func:`strip_paths`
(they differ from one grading to the next). Only regular ``.py`` files of at most
:data:`MODULE_BYTES` are copied (never a link, FIFO or device); the whole tree is removed
without recursion (:mod:`tree`), however deep a child nested its folders in the scratch dir.
"""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from ... import files
from ...results import Note
from .kept_bytecode import SOURCE_MTIME

MODULE_BYTES = 8 << 20         # a module file larger than this is not copied into a workspace
# the private folders of a Workspace, as they appear in messages (never the same twice: see strip_paths)
SANDBOX_PATH = re.compile(r"/[^\s'\"]*?attnkit-[A-Za-z0-9_]+/(?:submission|scratch)/")


def strip_paths(text: str) -> str:
    """``text`` without the private workspace paths, which differ from one grading to the next."""
    return SANDBOX_PATH.sub("", text)


DISK_QUOTA = 64 << 20     # bytes of files one submission's children may keep in its scratch dir
SCRATCH_ENTRIES = 10_000  # entries a measure of the scratch dir visits


def bytecode_folder(scratch: Path) -> Path:
    """Where the children of the submission whose scratch folder is ``scratch`` write and read their bytecode (their
    ``sys.pycache_prefix``, sent with each spawn request): shared by them, so a module is compiled once per session."""
    return scratch / "pycache"


def disk_free(path: str | Path) -> int | None:
    """Bytes free on the file system holding ``path`` (None when it cannot be read)."""
    try:
        info = os.statvfs(path)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize


class Workspace:
    """A private temporary copy of one submission's modules, and a scratch dir for its children."""

    def __init__(self, modules_dir: Path, user: tuple[int, int] | None = None):
        self.root = Path(tempfile.mkdtemp(prefix="attnkit-"))
        self.submission = self.root / "submission"
        self.scratch = self.root / "scratch"
        self.bytecode = bytecode_folder(self.scratch)  # the children's ``sys.pycache_prefix``
        self.outputs = 0
        self.user = user
        self.looked = float("-inf")  # time.monotonic() of the last measure of the scratch dir (child.py)
        self.timeouts: dict[str, int] = {}  # per exercise, over all its children (see MAX_TIMEOUTS)
        self.spent: dict[str, float] = {}   # seconds of requests per exercise (see Limits)
        self.released: set = set()  # zygotes holding killed children not reaped yet (settled before removal)
        self.problems: list[Note] = []  # what its children made the grader notice (the session reports)
        self.scrubbers: dict = {}  # per zygote: the machine's paths its children's texts are cleaned of (transport.py)
        try:
            self.submission.mkdir()
            self.scratch.mkdir()
            for path in sorted(Path(modules_dir).iterdir()):
                if path.suffix == ".py":
                    copy_module(path, self.submission / path.name)
            os.chmod(self.root, 0o755)
            os.chmod(self.submission, 0o755)
            if user is not None:  # children run as nobody: they may read the copy and write only the scratch dir
                os.chown(self.scratch, *user)
        except BaseException:
            self.close()
            raise

    def scratch_bytes(self) -> int:
        """Bytes of the files below the scratch dir (what the children wrote), or past :data:`DISK_QUOTA` when it
        holds more entries than a walk of it may visit."""
        try:
            found, _ = files.scan(self.scratch, 64, SCRATCH_ENTRIES)
        except files.TreeTooLarge:
            return DISK_QUOTA + 1
        except OSError:
            return 0
        return sum(item.size for item in found)

    def clear_scratch(self) -> None:
        """Remove everything the children wrote (their process is gone); the scratch dir stays, empty."""
        files.remove(self.scratch)
        self.scratch.mkdir(exist_ok=True)
        if self.user is not None:
            os.chown(self.scratch, *self.user)

    def output_file(self, exercise: str) -> Path:
        self.outputs += 1
        return self.root / f"output-{exercise}-{self.outputs}.txt"

    def settle(self) -> None:
        """Return once every child of this submission handed to a zygote has been reaped (none writes here now)."""
        for zygote in list(self.released):
            zygote.settle()
        self.released.clear()

    def close(self) -> None:
        self.settle()
        files.remove(self.root)

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def copy_module(source: Path, target: Path) -> bool:
    """Copy a regular file of at most :data:`MODULE_BYTES` (never a link, FIFO or device); False when skipped. The
    copy's modification time is :data:`~.kept_bytecode.SOURCE_MTIME`, whatever the source's, so that bytecode made
    from another workspace's copy of the same source is valid for it."""
    try:
        data = files.read_regular(source, MODULE_BYTES)
    except OSError:
        return False
    with open(target, "xb") as sink:
        sink.write(data)
    os.utime(target, (SOURCE_MTIME, SOURCE_MTIME))
    return True
