"""The class folder: one entry per student (a folder or a ``.zip``), content hashes, safe intake.

Student hand-ins are hostile, and so are their archives and folders. Both pass the same caps
before anything is copied or hashed: at most :data:`MAX_ENTRIES` entries, :data:`MAX_DEPTH`
folders deep, :data:`MAX_FILE_BYTES` per ``.py`` file and :data:`MAX_TOTAL_BYTES` in all (a zip's
counted on the decompressed stream, so a zip bomb is caught). Too many entries or bytes refuse
the whole hand-in (:class:`SubmissionProblem`: the student scores 0 with that message; the run goes
on). A single unsafe entry (a zip path escaping the folder or absolute, a symbolic link, a FIFO,
socket or device, a folder nested too deep, one file too large) is skipped and named in
:attr:`Intake.skipped`; the rest is graded. Only ``.py`` files are used.
"""
from __future__ import annotations

import errno
import hashlib
import lzma
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from grader import files
from grader.text import printable

from .zipindex import NotAZip, directory_figures

MAX_ENTRIES = 2000                 # entries in one zip
MAX_TOTAL_BYTES = 64 << 20         # uncompressed bytes of the .py files extracted from one zip
MAX_FILE_BYTES = 8 << 20           # one .py file
MAX_DEPTH = 8                      # folders below the hand-in's top
MAX_NAME_BYTES = 255               # one file or folder name of a zip entry (what file systems take)
MAX_ZIP_BYTES = 256 << 20          # a .zip hand-in itself (never read, not even hashed, past this)
MAX_DIRECTORY_BYTES = 4 << 20      # a zip's central directory: MAX_ENTRIES entries with names of up to 2 KiB
SKIPPED_DIRS = {"__pycache__", "__MACOSX"}
CHUNK = 1 << 16


class SubmissionProblem(Exception):
    """A submission that cannot be graded as handed in; the message says why (the worker's ``refused`` turns it
    into what the student reads)."""


@dataclass
class Intake:
    """What of a hand-in is used: its ``.py`` files (relative posix name, size) and what was skipped, named."""

    files: list[tuple[str, int]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Entry:
    student: str
    path: Path
    kind: str  # "folder" | "zip"
    ignored: tuple[str, ...] = ()  # the student's other hand-ins in the class folder (one is graded: this one)

    @property
    def handed_in(self) -> str:
        """What was graded, as the instructor sees it in the class folder: ``grace/`` or ``grace.zip``."""
        return self.path.name + ("/" if self.kind == "folder" else "")

    def duplicates(self) -> str:
        """The line that says which of a student's hand-ins was graded (empty when there was one)."""
        return f"graded {self.handed_in}; ignored {', '.join(self.ignored)}" if self.ignored else ""


def hidden(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS


def readable(name: str) -> str:
    """A file name as a student id people can read and files can hold: bytes that are not UTF-8 as ``\\xNN``,
    control and format characters escaped (a name is anything a file system takes)."""
    return printable(name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"))


def discover(root: Path) -> tuple[list[Entry], list[str]]:
    """The entries of ``root``, sorted by student id (:func:`readable`), and warnings about what was left out."""
    entries: dict[str, Entry] = {}
    warnings = []
    for path in sorted(Path(root).iterdir(), key=lambda p: p.name):
        if hidden(path.name):
            continue
        shown = readable(path.name)
        if path.is_symlink():
            entry = Entry(readable(path.stem if path.suffix.lower() == ".zip" else path.name), path, "symlink")
        elif path.is_dir():
            entry = Entry(shown, path, "folder")
        elif path.is_file() and path.suffix.lower() == ".zip":
            entry = Entry(readable(path.stem), path, "zip")
        else:
            warnings.append(f"ignored {shown}: not a folder or a .zip")
            continue
        if entry.student in entries:  # the first in name order is graded (grace/ before grace.zip), and says so
            kept = entries[entry.student]
            entries[entry.student] = replace(kept, ignored=(*kept.ignored, entry.handed_in))
            continue
        entries[entry.student] = entry
    return sorted(entries.values(), key=lambda e: e.student), warnings


def content_hash(entry: Entry) -> str:
    """sha256 of a submission's content: a zip's bytes, or a folder's relative names and bytes (only what
    :func:`inspect_folder` lets through: no FIFO, device or link is ever opened, no file past the caps read)."""
    digest = hashlib.sha256()
    if entry.kind == "zip":
        digest.update(b"zip\0")
        size = entry.path.stat().st_size
        if size > MAX_ZIP_BYTES:  # refused when graded: its size and time stand for it
            digest.update(f"{size} {entry.path.stat().st_mtime_ns}".encode())
            return digest.hexdigest()
        with open(entry.path, "rb") as handle:
            for block in iter(lambda: handle.read(CHUNK), b""):
                digest.update(block)
        return digest.hexdigest()
    if entry.kind == "symlink":
        digest.update(b"symlink\0" + os.fsencode(os.readlink(entry.path)))
        return digest.hexdigest()
    digest.update(b"folder\0")
    try:
        intake = inspect_folder(entry.path)
    except SubmissionProblem as problem:
        digest.update(b"refused\0" + str(problem).encode())
        return digest.hexdigest()
    for name in intake.skipped:
        digest.update(b"S\0" + os.fsencode(name) + b"\0")
    for name, size in intake.files:
        digest.update(b"F\0" + os.fsencode(name) + b"\0" + str(size).encode() + b"\0")
        digest.update(read_module(entry.path / name))
    return digest.hexdigest()


def read_module(path: Path) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES` (never a link, FIFO or device)."""
    return files.read_regular(path, MAX_FILE_BYTES)


def inspect_folder(folder: Path) -> Intake:
    """The ``.py`` files of a hand-in folder within the caps, and what is skipped (named, with why).

    Raises :class:`SubmissionProblem` past :data:`MAX_ENTRIES` entries or :data:`MAX_TOTAL_BYTES`.
    Nothing but folders is opened.
    """
    try:  # a file MAX_DEPTH folders deep is an entry MAX_DEPTH + 1 levels down (as a zip's path allows)
        found, too_deep = files.scan(folder, MAX_DEPTH + 1, MAX_ENTRIES, skip=hidden)
    except files.TreeTooLarge as error:
        raise SubmissionProblem(f"your submission holds {error} (at most {MAX_ENTRIES})") from None
    intake = Intake(skipped=[f"{name}/ (more than {MAX_DEPTH} folders deep)" for name in too_deep])
    total = 0
    for item in found:
        if item.kind == "folder":
            continue
        if item.kind != "file":
            intake.skipped.append(f"{item.name} (a {KIND_NAMES.get(item.kind, item.kind)}, not a file)")
        elif item.name.endswith(".py"):
            if item.size > MAX_FILE_BYTES:
                intake.skipped.append(f"{item.name} (larger than {MAX_FILE_BYTES >> 20} MiB)")
                continue
            total += item.size
            intake.files.append((item.name, item.size))
    if total > MAX_TOTAL_BYTES:
        raise SubmissionProblem(f"your .py files exceed {MAX_TOTAL_BYTES >> 20} MiB")
    return intake


KIND_NAMES = {"symlink": "symbolic link", "fifo": "FIFO (named pipe)", "socket": "socket", "device": "device file"}


def stage_folder(folder: Path, target: Path) -> Intake:
    """Copy the ``.py`` files of the hand-in ``folder`` that pass :func:`inspect_folder` into ``target``."""
    intake = inspect_folder(folder)
    kept = []
    for name, size in intake.files:
        try:
            data = read_module(folder / name)
        except OSError as error:  # changed since it was inspected, or unreadable
            intake.skipped.append(f"{name} ({error.strerror or error})")
            continue
        destination = target.joinpath(*name.split("/"))
        destination.parent.mkdir(parents=True, exist_ok=True)  # at most MAX_DEPTH levels
        destination.write_bytes(data)
        kept.append((name, size))
    intake.files = kept
    return intake


class UnsafeEntry(ValueError):
    """One zip entry that is not extracted (the message says why); the rest of the zip is."""


def safe_name(raw: str) -> PurePosixPath:
    """The relative path a zip entry may be extracted to, or :class:`UnsafeEntry`."""
    name = raw.replace("\\", "/")
    if "\0" in name:
        raise UnsafeEntry("has a NUL byte in its name")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UnsafeEntry("has an absolute path")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafeEntry("would be written outside the submission")
    if len(parts) > MAX_DEPTH + 1:
        raise UnsafeEntry(f"is more than {MAX_DEPTH} folders deep")
    if any(len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES for part in parts):
        raise UnsafeEntry(f"has a name longer than {MAX_NAME_BYTES} bytes")
    return PurePosixPath(*parts) if parts else PurePosixPath(".")


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    mode = info.external_attr >> 16
    return stat.S_ISLNK(mode)


FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)  # the grading machine's disk: never the student's problem


def _extract_entry(zipped: zipfile.ZipFile, info: zipfile.ZipInfo, destination: Path, total: list) -> int:
    """Write one entry to ``destination``; its size. UnsafeEntry when that entry cannot be used while the zip is
    sound (encrypted, a compression method Python lacks, a name the file system refuses: nothing of it is left
    behind); SubmissionProblem when it expands past what its header said (a zip bomb). Corrupt data raises what
    the codec raises (the whole zip is refused); a full disk raises OSError (graded again later)."""
    if destination.exists():
        raise UnsafeEntry("is in the zip twice; the first one is used")
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        sink = open(destination, "xb")
    except OSError as failure:
        if failure.errno in FULL_ERRNOS:
            raise
        raise UnsafeEntry(f"could not be written: {failure.strerror or type(failure).__name__}") from None
    written = 0
    try:
        with sink:
            try:
                source = zipped.open(info)
            except (RuntimeError, NotImplementedError) as failure:
                raise UnsafeEntry("is encrypted" if "encrypted" in str(failure)
                                  else "uses a compression method that cannot be read") from None
            with source:
                for block in iter(lambda: source.read(CHUNK), b""):
                    written += len(block)
                    total[0] += len(block)
                    if written > info.file_size or total[0] > MAX_TOTAL_BYTES:  # more than its header said
                        raise SubmissionProblem("the zip expands to too many bytes (a zip bomb?)")
                    sink.write(block)
    except BaseException:
        destination.unlink(missing_ok=True)
        raise
    return written


def extract_zip(archive: Path, target: Path) -> Intake:
    """Unpack the ``.py`` files of ``archive`` into the (empty, private) folder ``target``.

    Every entry is validated before anything is written: unsafe ones are skipped and named in the
    returned :class:`Intake`; the byte caps are enforced on the decompressed stream itself, so a
    lying header does not help a zip bomb.
    """
    intake = Intake()
    try:
        size = os.stat(archive).st_size
        if size > MAX_ZIP_BYTES:
            raise SubmissionProblem(f"the zip is {size >> 20} MiB (at most {MAX_ZIP_BYTES >> 20} MiB)")
        try:  # counted from the end records before the central directory is parsed (zipindex.py)
            listed, directory = directory_figures(archive)
        except NotAZip:
            listed, directory = 0, 0  # zipfile says what is wrong below
        if listed > MAX_ENTRIES or directory > MAX_DIRECTORY_BYTES:
            raise SubmissionProblem(f"the zip lists {listed} entries in a {directory >> 10} KiB directory "
                                    f"(at most {MAX_ENTRIES} entries, {MAX_DIRECTORY_BYTES >> 20} MiB)")
        with zipfile.ZipFile(archive) as zipped:
            infos = zipped.infolist()
            if len(infos) > MAX_ENTRIES:
                raise SubmissionProblem(f"the zip has {len(infos)} entries (at most {MAX_ENTRIES})")
            chosen = []
            for info in infos:
                try:
                    name = safe_name(info.filename)
                    if _is_symlink(info):
                        raise UnsafeEntry("is a symbolic link")
                except UnsafeEntry as unsafe:
                    intake.skipped.append(f"zip entry {info.filename[:200]!r} ({unsafe})")
                    continue
                if info.filename.endswith("/") or any(hidden(part) for part in name.parts) or name.suffix != ".py":
                    continue
                if info.file_size > MAX_FILE_BYTES:  # as in a folder: that file is skipped, the rest graded
                    intake.skipped.append(f"{name.as_posix()} (larger than {MAX_FILE_BYTES >> 20} MiB)")
                    continue
                chosen.append((info, name))
            if sum(info.file_size for info, _ in chosen) > MAX_TOTAL_BYTES:
                raise SubmissionProblem(f"the zip's .py files exceed {MAX_TOTAL_BYTES >> 20} MiB uncompressed")
            total = [0]
            for info, name in chosen:
                try:
                    intake.files.append((name.as_posix(), _extract_entry(zipped, info, target.joinpath(*name.parts),
                                                                         total)))
                except UnsafeEntry as unsafe:  # this entry only: skipped and named, the rest graded
                    intake.skipped.append(f"{name.as_posix()[:200]} ({unsafe})")
    except SubmissionProblem:
        raise
    except OSError as failure:
        if failure.errno in FULL_ERRNOS:  # the grading machine's disk: the run grades this hand-in again
            raise
        raise SubmissionProblem(f"could not read your zip ({type(failure).__name__}: "
                                f"{(failure.strerror or str(failure))[:200]})") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, UnicodeError, EOFError, ValueError,
            NotImplementedError, RuntimeError, zlib.error, lzma.LZMAError) as failure:  # corrupt data in any codec
        raise SubmissionProblem(f"could not read your zip ({type(failure).__name__}: {str(failure)[:200]})") from None
    return intake


def package_root(folder: Path) -> Path:
    """Where the modules of an unpacked submission are: descend through lone wrapper folders."""
    for _ in range(4):
        if (folder / "exercises").is_dir() or any(folder.glob("*.py")):
            break
        subdirs = [p for p in folder.iterdir() if p.is_dir() and not hidden(p.name)]
        if len(subdirs) != 1:
            break
        folder = subdirs[0]
    return folder
