"""The submission step ``workspace``: where a hand-in's modules are, however it was wrapped."""
from __future__ import annotations

import pytest

from attnkit.grade.steps.workspace import workspace
from tests.grade.steps.stepkit import submission


@pytest.mark.parametrize("layout, modules", [
    ("softmax.py", "."),
    ("exercises/softmax.py", "exercises"),
    ("handin/exercises/softmax.py", "handin/exercises"),
    ("a/b/softmax.py", "a/b"),
])
def test_the_modules_are_found_below_lone_wrapper_folders(tmp_path, layout, modules):
    unpacked = tmp_path / "scratch" / "unpacked"
    (unpacked / layout).parent.mkdir(parents=True)
    (unpacked / layout).write_text("")
    state = workspace(submission(tmp_path / "alice", tmp_path / "out", scratch=tmp_path / "scratch"))
    assert state.modules == unpacked / modules


def test_two_folders_side_by_side_are_not_descended(tmp_path):
    unpacked = tmp_path / "scratch" / "unpacked"
    for name in ("one", "two"):
        (unpacked / name).mkdir(parents=True)
        (unpacked / name / "softmax.py").write_text("")
    state = workspace(submission(tmp_path / "alice", tmp_path / "out", scratch=tmp_path / "scratch"))
    assert state.modules == unpacked


def test_a_refused_hand_in_has_no_modules(tmp_path):
    state = workspace(submission(tmp_path / "alice", tmp_path / "out", refusal="alice is a symbolic link"))
    assert state.modules is None
