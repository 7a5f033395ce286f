"""The class folder: one entry per student (a folder or a ``.zip``), content hashes, safe unpacking.

Student code is hostile, and so are its archives: a zip entry that would land outside the
extraction folder (``../``, an absolute path, a drive letter), a symlink entry, too many entries
or too many uncompressed bytes (a zip bomb) makes the whole submission refused with a
:class:`SubmissionProblem` (the student scores 0 with that message; the run goes on).
A symlink anywhere in a submission folder is refused the same way. Only ``.py`` files are used.
"""
from __future__ import annotations

import hashlib
import lzma
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_ENTRIES = 2000                 # entries in one zip
MAX_TOTAL_BYTES = 64 << 20         # uncompressed bytes of the .py files extracted from one zip
MAX_FILE_BYTES = 8 << 20           # one .py file
SKIPPED_DIRS = {"__pycache__", "__MACOSX"}
CHUNK = 1 << 16


class SubmissionProblem(Exception):
    """A submission that cannot be graded as handed in; the message is shown to the student."""


@dataclass(frozen=True)
class Entry:
    student: str
    path: Path
    kind: str  # "folder" | "zip"


def hidden(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS


def discover(root: Path) -> tuple[list[Entry], list[str]]:
    """The entries of ``root``, sorted by student id, and warnings about what was left out."""
    entries: dict[str, Entry] = {}
    warnings = []
    for path in sorted(Path(root).iterdir(), key=lambda p: p.name):
        if hidden(path.name):
            continue
        if path.is_symlink():
            entry = Entry(path.stem if path.suffix.lower() == ".zip" else path.name, path, "symlink")
        elif path.is_dir():
            entry = Entry(path.name, path, "folder")
        elif path.is_file() and path.suffix.lower() == ".zip":
            entry = Entry(path.stem, path, "zip")
        else:
            warnings.append(f"ignored {path.name}: not a folder or a .zip")
            continue
        if entry.student in entries:
            warnings.append(f"ignored {path.name}: student {entry.student!r} already has {entries[entry.student].path.name}")
            continue
        entries[entry.student] = entry
    return sorted(entries.values(), key=lambda e: e.student), warnings


def content_hash(entry: Entry) -> str:
    """sha256 of a submission's content: a zip's bytes, or a folder's relative names and bytes."""
    digest = hashlib.sha256()
    if entry.kind == "zip":
        digest.update(b"zip\0")
        with open(entry.path, "rb") as handle:
            for block in iter(lambda: handle.read(CHUNK), b""):
                digest.update(block)
        return digest.hexdigest()
    if entry.kind == "symlink":
        digest.update(b"symlink\0" + os.fsencode(os.readlink(entry.path)))
        return digest.hexdigest()
    digest.update(b"folder\0")
    for relative, path in _walk(entry.path):
        name = os.fsencode(relative)
        if path.is_symlink():
            digest.update(b"L\0" + name + b"\0" + os.fsencode(os.readlink(path)) + b"\0")
        else:
            digest.update(b"F\0" + name + b"\0" + str(path.stat().st_size).encode() + b"\0")
            with open(path, "rb") as handle:
                for block in iter(lambda: handle.read(CHUNK), b""):
                    digest.update(block)
    return digest.hexdigest()


def _walk(folder: Path):
    """(relative posix name, path) of every non-hidden file or symlink under ``folder``, sorted, no links followed."""
    found = []
    for base, dirs, files in os.walk(folder, followlinks=False):
        links = [d for d in dirs if os.path.islink(os.path.join(base, d))]
        dirs[:] = sorted(d for d in dirs if not hidden(d) and d not in links)
        for name in files + links:
            if hidden(name):
                continue
            path = Path(base, name)
            found.append((path.relative_to(folder).as_posix(), path))
    return sorted(found)


def check_folder(folder: Path) -> None:
    """Refuse a submission folder holding a symlink (to a solution file, /etc/passwd, anything)."""
    for relative, path in _walk(folder):
        if path.is_symlink():
            raise SubmissionProblem(f"refused: your submission contains a symbolic link ({relative}); "
                                    "hand in the files themselves")


def safe_name(raw: str) -> PurePosixPath:
    """The relative path a zip entry may be extracted to, or :class:`SubmissionProblem`."""
    name = raw.replace("\\", "/")
    if "\0" in name:
        raise SubmissionProblem(f"refused: zip entry {raw!r} has a NUL byte in its name")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise SubmissionProblem(f"refused: zip entry {raw!r} has an absolute path")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise SubmissionProblem(f"refused: zip entry {raw!r} would be written outside the submission")
    return PurePosixPath(*parts) if parts else PurePosixPath(".")


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    mode = info.external_attr >> 16
    return stat.S_ISLNK(mode)


def extract_zip(archive: Path, target: Path) -> None:
    """Unpack the ``.py`` files of ``archive`` into the (empty, private) folder ``target``.

    Every entry is validated before anything is written; the byte caps are enforced on the
    decompressed stream itself, so a lying header does not help a zip bomb.
    """
    try:
        with zipfile.ZipFile(archive) as zipped:
            infos = zipped.infolist()
            if len(infos) > MAX_ENTRIES:
                raise SubmissionProblem(f"refused: the zip has {len(infos)} entries (at most {MAX_ENTRIES})")
            chosen = []
            for info in infos:
                name = safe_name(info.filename)
                if _is_symlink(info):
                    raise SubmissionProblem(f"refused: zip entry {info.filename!r} is a symbolic link")
                if info.is_dir() or any(hidden(part) for part in name.parts) or name.suffix != ".py":
                    continue
                chosen.append((info, name))
            if sum(info.file_size for info, _ in chosen) > MAX_TOTAL_BYTES:
                raise SubmissionProblem(f"refused: the zip's .py files exceed {MAX_TOTAL_BYTES >> 20} MiB uncompressed")
            total = 0
            for info, name in chosen:
                destination = target.joinpath(*name.parts)
                destination.parent.mkdir(parents=True, exist_ok=True)
                written = 0
                with zipped.open(info) as source, open(destination, "xb") as sink:
                    for block in iter(lambda: source.read(CHUNK), b""):
                        written += len(block)
                        total += len(block)
                        if written > MAX_FILE_BYTES or total > MAX_TOTAL_BYTES:
                            raise SubmissionProblem("refused: the zip expands to too many bytes (a zip bomb?)")
                        sink.write(block)
    except SubmissionProblem:
        raise
    except FileExistsError as failure:
        raise SubmissionProblem(f"refused: the zip holds the same file twice ({Path(failure.filename).name})") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, UnicodeError, EOFError, OSError, ValueError,
            NotImplementedError, RuntimeError, zlib.error, lzma.LZMAError) as failure:  # corrupt data in any codec
        raise SubmissionProblem(f"could not read your zip ({type(failure).__name__}: {failure})") from None


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
