"""The submission step ``session``: every check of the course run in the sandbox, its problems kept."""
from __future__ import annotations

import pytest

from attnkit.grade.steps import session
from grader.results import PASSED, Note, NoteKind
from tests.grade.steps.stepkit import EXERCISES, SOLUTIONS, copy_modules, submission


@pytest.fixture(scope="module")
def sandbox():
    from grader.sandbox import Limits, Sandbox

    with Sandbox(Limits(timeout=10)) as started:
        yield started


def test_the_course_s_checks_run_on_the_hand_in(sandbox, tmp_path):
    modules = copy_modules(SOLUTIONS, tmp_path / "alice")
    state = session.session(submission(tmp_path / "alice", tmp_path / "out", modules=modules), sandbox)
    assert [e.exercise for e in state.exercises] == ["softmax"]
    assert state.exercises[0].checks and {c.status for c in state.exercises[0].checks} == {PASSED}
    assert state.problems == []


def test_a_stub_fails_its_checks(sandbox, tmp_path):
    modules = copy_modules(EXERCISES, tmp_path / "bob")
    state = session.session(submission(tmp_path / "bob", tmp_path / "out", modules=modules), sandbox)
    assert state.exercises[0].score == 0 < state.exercises[0].max_score


def test_the_problems_are_this_hand_in_s_alone(sandbox, tmp_path):
    modules = copy_modules(SOLUTIONS, tmp_path / "carol")
    (modules / "softmax.py").unlink()
    state = session.session(submission(tmp_path / "carol", tmp_path / "out", modules=modules), sandbox)
    assert state.problems == [Note(NoteKind.MISSING_MODULE, "softmax.py")]
    assert state.exercises[0].score == 0
    # the next hand-in in the same sandbox: carol's problem is not his
    modules = copy_modules(SOLUTIONS, tmp_path / "dan")
    state = session.session(submission(tmp_path / "dan", tmp_path / "out", modules=modules), sandbox)
    assert state.problems == [] and state.exercises[0].score == state.exercises[0].max_score


def test_a_refused_hand_in_is_not_run(tmp_path):
    state = session.session(submission(tmp_path / "eve", tmp_path / "out", refusal="eve is a symbolic link"),
                            sandbox=object())  # a sandbox that cannot do anything: it is not used
    assert state.exercises == [] and state.problems == []
