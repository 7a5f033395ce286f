"""The submission step ``session``: every check of the course run in the sandbox, its problems kept."""
from __future__ import annotations

import pytest

from attnkit.grade.steps import session
from grader.results import PASSED
from tests.grade.steps.stepkit import EXERCISES, SOLUTIONS, copy_modules, submission


@pytest.fixture(scope="module")
def zygote():
    from grader.sandbox.host.spawner import Limits, Zygote

    with Zygote(Limits(timeout=10)) as started:
        yield started


def test_the_course_s_checks_run_on_the_hand_in(zygote, tmp_path):
    modules = copy_modules(SOLUTIONS, tmp_path / "alice")
    state = session.session(submission(tmp_path / "alice", tmp_path / "out", modules=modules), zygote)
    assert [e.exercise for e in state.exercises] == ["softmax"]
    assert state.exercises[0].checks and {c.status for c in state.exercises[0].checks} == {PASSED}
    assert state.problems == []


def test_a_stub_fails_its_checks(zygote, tmp_path):
    modules = copy_modules(EXERCISES, tmp_path / "bob")
    state = session.session(submission(tmp_path / "bob", tmp_path / "out", modules=modules), zygote)
    assert state.exercises[0].score == 0 < state.exercises[0].max_score


def test_the_problems_are_this_hand_in_s_alone(zygote, tmp_path):
    zygote.problems.append({"kind": "timeout", "detail": "the previous student's"})
    modules = copy_modules(SOLUTIONS, tmp_path / "carol")
    (modules / "softmax.py").unlink()
    state = session.session(submission(tmp_path / "carol", tmp_path / "out", modules=modules), zygote)
    assert state.problems == [{"kind": "missing_module", "detail": "softmax.py"}]
    assert state.exercises[0].score == 0


def test_a_refused_hand_in_is_not_run(tmp_path):
    state = session.session(submission(tmp_path / "eve", tmp_path / "out", refusal="eve is a symbolic link"),
                            zygote=object())  # a zygote that cannot do anything: it is not used
    assert state.exercises == [] and state.problems == []


def test_the_sandbox_s_private_paths_are_dropped():
    text = "File \"/tmp/attnkit-run-1-ab/attnkit-worker-x/attnkit-q1w2/submission/softmax.py\", line 3"
    assert session.comparable(text) == 'File "softmax.py", line 3'
