"""Fuzzing the submission extractor with random zip trees: ``..``, absolute names, drive letters, symlinks,
duplicate names, huge declared sizes, non-UTF-8 names, every compression, corrupted bytes.

Whatever the archive, :func:`attnkit.grade.submissions.extract_zip` writes nothing outside its target
(no symlink either), raises nothing but :class:`SubmissionProblem`, and when it accepts an intact
archive, the target holds exactly its safe ``.py`` entries with their bytes, and every unsafe entry
(an escape, an absolute name, a link, a path too deep) is named among the skipped ones.
tests/grade/test_grade_zip_safety.py has one example of each threat; this is the random version.
"""
from __future__ import annotations

import os
import stat
import struct
import tempfile
import warnings
import zipfile
from pathlib import Path, PurePosixPath

from hypothesis import event, given
from hypothesis import strategies as st

from attnkit.grade import submissions
from attnkit.grade.submissions import SubmissionProblem, UnsafeEntry, extract_zip, hidden, safe_name
from tests.robustness.robustkit import fuzz

ABSOLUTE = "<absolute>"        # replaced by the absolute path of a folder beside the target: an escape is seen
NON_UTF8 = "<nonutf8>"         # replaced in the archive's bytes by as many bytes that are not UTF-8
NON_UTF8_BYTES = b"\xff\xfe\x80"
SEGMENTS = ["..", ".", "", "a", "exercises", "softmax", "masking.py", "softmax.py", "x.py", "__MACOSX", ".hidden",
            "__pycache__", "C:", "c:", "\\", "..\\..", "caf\u00e9.py", "\u202e.py", " ", "a.py", "con", ABSOLUTE,
            NON_UTF8, NON_UTF8 + ".py"]
COMPRESSIONS = [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
MODES = [0, stat.S_IFREG | 0o644, stat.S_IFLNK | 0o777, stat.S_IFDIR | 0o755, stat.S_IFIFO | 0o644, 0o4755]

names = st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=4).map("/".join) | st.text(max_size=12)
entry = st.tuples(names, st.binary(max_size=64), st.sampled_from(MODES), st.sampled_from(COMPRESSIONS))
archives = st.fixed_dictionaries({
    "entries": st.lists(entry, max_size=6),
    "huge": st.lists(st.integers(0, 5), max_size=2),                    # entries whose declared size is patched
    "corrupt": st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3),
})


def build(archive: Path, outside: Path, spec: dict) -> list[tuple[str, bytes, int]]:
    """Write the zip; returns (name as stored, data, mode) of each entry."""
    written = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are the point
        with zipfile.ZipFile(archive, "w") as zipped:
            for name, data, mode, compression in spec["entries"]:
                name = name.replace(ABSOLUTE, str(outside)).replace(NON_UTF8, "Q" * len(NON_UTF8_BYTES))
                info = zipfile.ZipInfo(name or "empty")
                info.external_attr = mode << 16
                info.compress_type = compression
                zipped.writestr(info, data)
                written.append((info.filename, data, mode))
    raw = bytearray(archive.read_bytes())
    raw = raw.replace(b"Q" * len(NON_UTF8_BYTES), NON_UTF8_BYTES)
    for index in spec["huge"]:  # the central directory's uncompressed size, just below the zip64 marker
        position = _central_entry(raw, index)
        if position is not None:
            raw[position + 24:position + 28] = struct.pack("<I", 0xFFFFFFFE)
    for position, value in spec["corrupt"]:
        if raw:
            raw[position % len(raw)] = value
    archive.write_bytes(bytes(raw))
    return written


def _central_entry(raw: bytearray, index: int) -> int | None:
    position = -1
    for _ in range(index + 1):
        position = raw.find(b"PK\x01\x02", position + 1)
        if position < 0:
            return None
    return position


def every_path(base: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(base):
        found += [Path(folder, name) for name in dirs + files]
    return found


@fuzz()
@given(archives)
def test_random_zip_trees(spec):
    with tempfile.TemporaryDirectory(prefix="attnkit-fuzz-zip-") as folder:
        base = Path(folder)
        outside, target = base / "outside", base / "deep" / "er" / "target"
        outside.mkdir()
        target.mkdir(parents=True)
        archive = base / "submission.zip"
        written = build(archive, outside, spec)
        try:
            intake = extract_zip(archive, target)
            outcome = "accepted"
        except SubmissionProblem as problem:
            assert str(problem), problem
            outcome = "refused"
        event(outcome)
        # nothing outside the target, nothing but regular .py files inside it
        for path in every_path(base):
            assert not path.is_symlink(), path
            if path in (archive, outside, target, base / "deep", base / "deep" / "er"):
                continue
            assert target in path.parents, f"written outside the target: {path}"
            if path.is_file():
                relative = path.relative_to(target)
                assert relative.suffix == ".py" and not any(hidden(part) for part in relative.parts), relative
                assert stat.S_IMODE(path.stat().st_mode) & 0o7000 == 0, "an archive's setuid bit was kept"
        intact = not spec["corrupt"] and not spec["huge"] and b"\xff\xfe" not in archive.read_bytes()
        if outcome == "accepted" and intact:
            expected, unsafe = expected_files(written)
            got = {p.relative_to(target).as_posix(): p.read_bytes() for p in every_path(target) if p.is_file()}
            assert got == expected
            assert len(intake.skipped) == unsafe


def expected_files(written) -> tuple[dict[str, bytes], int]:
    """What an accepted archive must unpack to (its safe .py entries, at their safe names, with their bytes),
    and how many entries it must skip as unsafe."""
    expected, unsafe = {}, 0
    for name, data, mode in written:  # mode: the entry's st_mode
        try:
            path = safe_name(name)
            if stat.S_ISLNK(mode):
                raise UnsafeEntry("a link")
        except UnsafeEntry:
            unsafe += 1
            continue
        if name.endswith("/") or any(hidden(part) for part in path.parts) or path.suffix != ".py":  # zipfile's is_dir()
            continue
        if path.as_posix() in expected:  # the same file twice: the first one is used, the second skipped and named
            unsafe += 1
            continue
        expected[path.as_posix()] = data
    return expected, unsafe


@fuzz()
@given(names | st.text())
def test_safe_name_is_relative_and_inside(raw):
    try:
        path = safe_name(raw)
    except UnsafeEntry as problem:
        assert str(problem).startswith(("has ", "would be written", "is more than")), problem
        return
    assert isinstance(path, PurePosixPath) and not path.is_absolute()
    assert ".." not in path.parts and "\\" not in str(path) and "\0" not in str(path)
    assert not (len(path.parts) and len(path.parts[0]) > 1 and path.parts[0][1] == ":")


def test_corrupt_compressed_data_is_a_submission_problem(tmp_path):
    """Found by the fuzzer: flipped bytes inside compressed data raised zlib.error / LZMAError, which the
    worker reported as the grader's own internal error instead of the student's unreadable zip."""
    for compression in COMPRESSIONS[1:]:
        archive = tmp_path / f"s{compression}.zip"
        with zipfile.ZipFile(archive, "w", compression=compression) as zipped:
            zipped.writestr("softmax.py", b"def softmax(x):\n    return x\n" * 50)
        raw = bytearray(archive.read_bytes())
        start = 30 + len("softmax.py")  # the local header, then the compressed stream
        for offset in range(24):
            raw[start + offset] ^= 0xFF
        archive.write_bytes(bytes(raw))
        target = tmp_path / f"t{compression}"
        target.mkdir()
        try:
            extract_zip(archive, target)
        except SubmissionProblem as problem:
            assert "could not read your zip" in str(problem)
        else:
            raise AssertionError(f"compression {compression}: a corrupt archive was accepted")


def test_limits_hold_for_every_compression(tmp_path, monkeypatch):
    monkeypatch.setattr(submissions, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(submissions, "MAX_TOTAL_BYTES", 1500)
    for compression in COMPRESSIONS:
        archive = tmp_path / f"bomb{compression}.zip"
        with zipfile.ZipFile(archive, "w", compression=compression) as zipped:
            zipped.writestr("softmax.py", b"#" * 5000)  # one file past the per-file cap: skipped, named
            zipped.writestr("masking.py", b"#" * 900)
        target = tmp_path / f"t{compression}"
        target.mkdir()
        intake = extract_zip(archive, target)
        assert [p.name for p in target.iterdir()] == ["masking.py"], f"compression {compression}"
        assert [reason.split(" ")[0] for reason in intake.skipped] == ["softmax.py"]
        with zipfile.ZipFile(archive, "a", compression=compression) as zipped:
            zipped.writestr("attention.py", b"#" * 900)  # 1800 bytes in all: past the total, refused
        try:
            extract_zip(archive, tmp_path / f"u{compression}")
        except SubmissionProblem as problem:
            assert "uncompressed" in str(problem) or "too many bytes" in str(problem)
        else:
            raise AssertionError(f"compression {compression}: 1800 bytes passed a 1500-byte total")
