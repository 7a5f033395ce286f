"""The submission step ``intake``: a hand-in unpacked into a private folder, or refused with the reason."""
from __future__ import annotations

import errno
import tempfile
import zipfile

import pytest

from attnkit.grade.steps import intake
from tests.grade.steps.stepkit import SOLUTIONS, copy_modules, submission, zip_modules


@pytest.fixture(autouse=True)
def private_temp(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()


def test_a_folder_s_modules_are_copied_and_listed(tmp_path):
    handed = copy_modules(SOLUTIONS, tmp_path / "alice")
    (handed / "notes.md").write_text("only .py files are used")
    state = intake.intake(submission(handed, tmp_path / "out"))
    unpacked = state.scratch / "unpacked"
    assert state.refusal is None and state.scratch.parent == tmp_path / "temp"
    assert sorted(p.name for p in unpacked.iterdir()) == sorted(p.name for p in SOLUTIONS.glob("*.py"))
    assert (unpacked / "softmax.py").read_bytes() == (SOLUTIONS / "softmax.py").read_bytes()
    assert ("softmax.py", (SOLUTIONS / "softmax.py").stat().st_size) in state.intake.files


def test_a_zip_is_unpacked_and_its_unsafe_entries_named(tmp_path):
    archive = zip_modules(SOLUTIONS, tmp_path / "alice.zip", prefix="handin/")
    with zipfile.ZipFile(archive, "a") as zipped:
        zipped.writestr("../escape.py", "x = 1\n")
    state = intake.intake(submission(archive, tmp_path / "out", kind="zip"))
    assert (state.scratch / "unpacked" / "handin" / "softmax.py").is_file()
    assert state.intake.skipped == ["zip entry '../escape.py' (would be written outside the submission)"]
    assert not (state.scratch / "escape.py").exists()


def test_a_hand_in_that_is_a_symbolic_link_is_refused(tmp_path):
    (tmp_path / "alice").symlink_to(SOLUTIONS)
    state = intake.intake(submission(tmp_path / "alice", tmp_path / "out", kind="symlink"))
    assert state.refusal == "alice is a symbolic link" and state.intake is None
    assert list((state.scratch / "unpacked").iterdir()) == []


def test_a_corrupt_zip_is_refused(tmp_path):
    (tmp_path / "alice.zip").write_bytes(b"PK\x03\x04 not a zip")
    state = intake.intake(submission(tmp_path / "alice.zip", tmp_path / "out", kind="zip"))
    assert state.refusal.startswith("could not read your zip (BadZipFile")


def test_a_full_disk_is_not_the_student_s_refusal(tmp_path, monkeypatch):
    def full(folder, target):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(intake, "stage_folder", full)
    with pytest.raises(OSError):  # the run grades the hand-in again: no refusal is kept
        intake.intake(submission(copy_modules(SOLUTIONS, tmp_path / "alice"), tmp_path / "out"))
