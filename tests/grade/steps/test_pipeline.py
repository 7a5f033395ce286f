"""The pipeline: the steps listed in order, each of one signature; the driver runs the lists as they are."""
from __future__ import annotations

import inspect
import io
import tempfile

import pytest

from attnkit.grade import main, pipeline, records
from attnkit.grade.state import Stop, Submission
from tests.grade.steps.stepkit import task


def names(steps) -> list[str]:
    return [step.__name__ for step in steps]


def test_the_steps_in_order():
    assert names(pipeline.BEFORE_GRADING) == ["find", "plan"]
    assert names(pipeline.SUBMISSION_STEPS) == ["intake", "workspace", "session", "result", "report"]
    assert names(pipeline.AFTER_GRADING) == ["gradebook"]


@pytest.mark.parametrize("steps, state", [(pipeline.BEFORE_GRADING, "Course"),
                                          (pipeline.SUBMISSION_STEPS, "Submission"),
                                          (pipeline.AFTER_GRADING, "Course")])
def test_every_step_takes_its_state_alone_and_returns_it(steps, state):
    for step in steps:
        signature = inspect.signature(step)
        first, *others = signature.parameters.values()
        assert (first.annotation, signature.return_annotation) == (state, state), step
        assert all(p.default is not inspect.Parameter.empty for p in others), step


def test_a_refused_hand_in_goes_through_every_step_without_a_sandbox(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "eve").symlink_to(tmp_path)
    out = tmp_path / "out"
    records.record_dir(out).mkdir(parents=True)
    state = pipeline.grade_submission(task(tmp_path / "eve", out, kind="symlink", student="eve"))
    assert state.result.problem.startswith("refused: eve is a symbolic link")
    assert records.up_to_date(out, "eve", "hash-1", "v-1")
    assert not state.scratch.exists()


def test_the_scratch_folder_is_removed_when_a_step_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    made = []

    def scratch(state):
        state.scratch = tmp_path / "scratch"
        state.scratch.mkdir()
        made.append(state.scratch)
        return state

    def broken(state):
        raise RuntimeError("a bug of ours")

    with pytest.raises(RuntimeError):
        pipeline.grade_submission(task(tmp_path / "alice", tmp_path / "out"), (scratch, broken))
    assert made and not made[0].exists()


def test_the_driver_runs_the_listed_steps(tmp_path, monkeypatch):
    seen = []

    def first(state):
        seen.append(("first", state.submissions))
        return state

    def last(state):
        seen.append("last")
        raise Stop("the last step stops here")

    monkeypatch.setattr(pipeline, "BEFORE_GRADING", (first,))
    monkeypatch.setattr(pipeline, "AFTER_GRADING", (last,))
    stderr = io.StringIO()
    assert main(tmp_path / "class", tmp_path / "out", progress=False, stdout=io.StringIO(), stderr=stderr) == 1
    assert seen == [("first", tmp_path / "class"), "last"]
    assert stderr.getvalue() == "attnkit grade: the last step stops here\n"



@pytest.mark.parametrize("step, says", [(pipeline.SUBMISSION_STEPS[1], "the workspace step needs the scratch folder"),
                                        (pipeline.SUBMISSION_STEPS[2], "the session step needs the modules"),
                                        (pipeline.SUBMISSION_STEPS[3], "the result step needs the intake"),
                                        (pipeline.SUBMISSION_STEPS[4], "the report step needs the result")])
def test_a_step_run_before_the_one_it_needs_says_so(tmp_path, step, says):
    with pytest.raises(RuntimeError, match=says):
        step(Submission(task(tmp_path / "alice", tmp_path / "out")))
