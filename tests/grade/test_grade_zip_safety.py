"""Safe intake: path escapes, absolute paths, symlink entries (skipped and named), zip bombs, odd names, deep
trees; folders with links, FIFOs, deep nesting, huge sparse files (same caps as zips); symlinked entries."""
from __future__ import annotations

import json
import os
import stat
import zipfile

import pytest

from attnkit.grade import main, submissions
from attnkit.grade.submissions import SubmissionProblem, extract_zip, inspect_folder, stage_folder
from tests.grade.gradekit import SOLUTIONS, copy_modules, zip_modules


def make_zip(path, entries):
    with zipfile.ZipFile(path, "w") as zipped:
        for name, data, *mode in entries:
            info = zipfile.ZipInfo(name)
            if mode:
                info.external_attr = mode[0] << 16
            zipped.writestr(info, data)
    return path


@pytest.mark.parametrize("name", ["../evil.py", "a/../../evil.py", "/etc/evil.py", "C:/evil.py", "..\\evil.py",
                                  "d/" * 9 + "deep.py", "d/" * 1200 + "deep.py"])
def test_unsafe_entries_skipped_and_named(tmp_path, name):
    archive = make_zip(tmp_path / "s.zip", [("softmax.py", "x = 1\n"), (name, "x = 2\n")])
    target = tmp_path / "target"
    target.mkdir()
    intake = extract_zip(archive, target)
    assert [p.relative_to(target).as_posix() for p in target.rglob("*")] == ["softmax.py"]  # the rest is used
    assert len(intake.skipped) == 1 and repr(name[:40])[:-1] in intake.skipped[0]
    assert not (tmp_path / "evil.py").exists()


def test_symlink_entry_skipped(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [("softmax.py", "/work/main/solutions/softmax.py", stat.S_IFLNK | 0o777),
                                            ("masking.py", "x = 1\n")])
    target = tmp_path / "target"
    target.mkdir()
    intake = extract_zip(archive, target)
    assert intake.skipped == ["zip entry 'softmax.py' (is a symbolic link)"]
    assert [p.name for p in target.rglob("*")] == ["masking.py"]


def test_zip_bomb_and_entry_count_refused(tmp_path, monkeypatch):
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for index in range(3):  # 3 x 8 MiB of "#", together past the total that is ever unpacked
            zipped.writestr(f"part{index}.py", b"#" * submissions.MAX_FILE_BYTES)
    monkeypatch.setattr(submissions, "MAX_TOTAL_BYTES", 2 * submissions.MAX_FILE_BYTES)
    target = tmp_path / "t1"
    target.mkdir()
    with pytest.raises(SubmissionProblem, match="uncompressed"):
        extract_zip(bomb, target)
    assert bomb.stat().st_size < 200_000
    many = make_zip(tmp_path / "many.zip", [(f"f{i}.txt", "") for i in range(30)])
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 20)
    (tmp_path / "t2").mkdir()
    with pytest.raises(SubmissionProblem, match="entries"):
        extract_zip(many, tmp_path / "t2")


def test_a_zip_header_that_understates_a_size_is_refused(tmp_path):
    archive = make_zip(tmp_path / "liar.zip", [("softmax.py", "x = 1\n" * 5000)])
    data = bytearray(archive.read_bytes())
    central = data.rindex(b"PK\x01\x02")  # the central directory's entry: its uncompressed size, at +24
    data[central + 24:central + 28] = (10).to_bytes(4, "little")
    archive.write_bytes(bytes(data))
    (tmp_path / "t").mkdir()
    with pytest.raises(SubmissionProblem, match="could not read your zip|too many bytes"):
        extract_zip(archive, tmp_path / "t")


def test_folder_and_zip_take_the_same_files(tmp_path):
    """One rule for both: a file 8 folders deep is used, 9 deep skipped; a file over 8 MiB is skipped and named."""
    eight, nine = "d/" * submissions.MAX_DEPTH + "ok.py", "e/" * (submissions.MAX_DEPTH + 1) + "deep.py"
    big = b"#" * (submissions.MAX_FILE_BYTES + 1)
    folder = copy_modules(SOLUTIONS, tmp_path / "folder")
    for name, data in ((eight, b"x = 1\n"), (nine, b"x = 2\n"), ("big.py", big)):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    with zipfile.ZipFile(tmp_path / "hand-in.zip", "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(folder.rglob("*.py")):
            zipped.writestr(path.relative_to(folder).as_posix(), path.read_bytes())
    (tmp_path / "from-folder").mkdir()
    (tmp_path / "from-zip").mkdir()
    by_folder = stage_folder(folder, tmp_path / "from-folder")
    by_zip = extract_zip(tmp_path / "hand-in.zip", tmp_path / "from-zip")
    assert sorted(by_folder.files) == sorted(by_zip.files)
    assert (eight, 6) in by_zip.files and all(not name.startswith("e/") for name, _ in by_zip.files)
    assert "big.py (larger than 8 MiB)" in by_folder.skipped and "big.py (larger than 8 MiB)" in by_zip.skipped
    assert any("more than 8 folders deep" in reason for reason in by_folder.skipped)
    assert any("more than 8 folders deep" in reason for reason in by_zip.skipped)


def test_only_py_files_and_odd_names(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [("exercises/softmax.py", "x = 1\n"), ("exercises/notes.txt", "hi"),
                                            (".hidden/a.py", ""), ("__MACOSX/._softmax.py", ""),
                                            ("exercises\\masking.py", "y = 2\n"), ("caf\u00e9.py", "z = 3\n")])
    # a name flagged UTF-8 that is not: zipfile may refuse it; either way no crash, a clear problem
    raw = bytearray(archive.read_bytes())
    target = tmp_path / "target"
    target.mkdir()
    extract_zip(archive, target)
    found = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    assert found == ["caf\u00e9.py", "exercises/masking.py", "exercises/softmax.py"]
    broken = tmp_path / "bad.zip"
    broken.write_bytes(bytes(raw).replace("caf\u00e9".encode(), b"caf\xff\xfe"))
    (tmp_path / "t2").mkdir()
    try:
        extract_zip(broken, tmp_path / "t2")
    except SubmissionProblem as problem:
        assert "zip" in str(problem)
    not_zip = tmp_path / "junk.zip"
    not_zip.write_bytes(b"not a zip at all")
    with pytest.raises(SubmissionProblem, match="could not read your zip"):
        extract_zip(not_zip, tmp_path / "t2")


def test_folder_intake_skips_what_is_not_a_file(tmp_path):
    folder = copy_modules(SOLUTIONS, tmp_path / "s")
    assert inspect_folder(folder).skipped == []
    (folder / "sub").mkdir()
    (folder / "sub" / "link.py").symlink_to(SOLUTIONS / "softmax.py")
    os.mkfifo(folder / "pipe.py")
    deep = folder
    for _ in range(submissions.MAX_DEPTH + 2):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "x.py").write_text("x = 1\n")
    with open(folder / "huge.py", "wb") as sparse:  # 2 GiB, no blocks on disk
        sparse.truncate(2 << 30)
    target = tmp_path / "copy"
    intake = stage_folder(folder, target)
    assert intake.skipped == ["d/d/d/d/d/d/d/d/d/ (more than 8 folders deep)", "huge.py (larger than 8 MiB)",
                              "pipe.py (a FIFO (named pipe), not a file)", "sub/link.py (a symbolic link, not a file)"]
    assert sorted(p.name for p in target.rglob("*")) == sorted(p.name for p in SOLUTIONS.glob("*.py"))


def test_huge_zip_refused_unread(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [("softmax.py", "x = 1\n")])
    with open(archive, "ab") as grown:  # 2 GiB, sparse: reading it would take seconds
        grown.truncate(2 << 30)
    entry = submissions.Entry("s", archive, "zip")
    assert len(submissions.content_hash(entry)) == 64
    (tmp_path / "t").mkdir()
    with pytest.raises(SubmissionProblem, match="the zip is 2048 MiB"):
        extract_zip(archive, tmp_path / "t")


def test_folder_with_too_many_entries_refused(tmp_path, monkeypatch):
    folder = tmp_path / "s"
    folder.mkdir()
    for i in range(30):
        (folder / f"f{i}.txt").write_text("")
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 20)
    with pytest.raises(SubmissionProblem, match="more than 20"):
        inspect_folder(folder)


def test_hostile_entries_skipped_and_run_completes(tmp_path):
    root = tmp_path / "class"
    copy_modules(SOLUTIONS, root / "good")
    zip_modules(SOLUTIONS, root / "okzip.zip")
    entries = [(p.name, p.read_text()) for p in SOLUTIONS.glob("*.py")]
    make_zip(root / "escape.zip", entries + [("../../escaped.py", "x = 1\n")])
    make_zip(root / "absolute.zip", entries + [("/tmp/absolute-attnkit.py", "x = 1\n")])
    make_zip(root / "linky.zip", [e for e in entries if e[0] != "masking.py"]
             + [("masking.py", str(SOLUTIONS / "masking.py"), stat.S_IFLNK | 0o777)])
    (root / "linked").symlink_to(root / "good")  # a symlinked submission entry
    out = tmp_path / "out"
    with open(os.devnull, "w") as null:
        assert main(root, out, jobs=2, timeout=2, progress=False, stdout=null, stderr=null) == 0
    rows = {line.split(",")[0]: line.split(",") for line in (out / "grades.csv").read_text().splitlines()[1:]}
    assert set(rows) == {"good", "okzip", "escape", "absolute", "linky", "linked"}
    for student in ("okzip", "escape", "absolute"):
        assert float(rows[student][1]) == float(rows["good"][1]) > 0
    assert 0 < float(rows["linky"][1]) < float(rows["good"][1])  # masking.py skipped: counts as missing
    for student in ("escape", "absolute", "linky"):
        record = json.loads((out / ".attnkit" / f"{student}.json").read_text())
        assert "skipped" in [note["kind"] for note in record["notes"]] and not record["problem"]
    record = json.loads((out / ".attnkit" / "linked.json").read_text())
    assert float(rows["linked"][1]) == 0 and record["problem"].startswith("refused")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["graded"] == 5 and summary["students"] == 6  # the refused one is not counted as graded
    assert not (tmp_path / "escaped.py").exists() and not os.path.exists("/tmp/absolute-attnkit.py")
