"""Issue 22 item 6: a zip's entry count and directory size come from its end records, before it is parsed."""
import zipfile

import pytest

from attnkit.grade import submissions
from attnkit.grade.zipindex import NotAZip, directory_figures


def test_figures_from_the_end_records(tmp_path):
    archive = tmp_path / "flood.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for index in range(2500):
            zipped.writestr(f"junk/{index}.txt", b"")
    entries, directory = directory_figures(archive)
    assert entries == 2500 and 2500 * 46 < directory < 2500 * 80
    with pytest.raises(NotAZip):
        directory_figures(tmp_path / "flood.zip.txt" if (tmp_path / "flood.zip.txt").write_bytes(b"no") else archive)


def test_a_zip64_directory_is_read_from_its_zip64_record(tmp_path):
    archive = tmp_path / "wide.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for index in range(70_000):  # past 65535: the classic record says 0xFFFF, the zip64 one the count
            zipped.writestr(str(index), b"")
    assert directory_figures(archive)[0] == 70_000


def test_a_flood_is_refused_without_opening_the_zip(tmp_path, monkeypatch):
    archive = tmp_path / "flood.zip"
    with zipfile.ZipFile(archive, "w", allowZip64=True) as zipped:
        for index in range(2001):
            zipped.writestr(f"junk/{index}.txt", b"")

    def never(*args, **kwargs):
        raise AssertionError("the central directory was parsed")

    monkeypatch.setattr(submissions.zipfile, "ZipFile", never)
    (tmp_path / "out").mkdir()
    with pytest.raises(submissions.SubmissionProblem, match="lists 2001 entries"):
        submissions.extract_zip(archive, tmp_path / "out")
