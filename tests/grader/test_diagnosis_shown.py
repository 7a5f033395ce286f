"""``attnkit check`` shows one failure per exercise (every one with ``--all``), so only the failures that can be that
one are diagnosed (``grader.runner.shown_first``): the failure shown, its message and its classic mistake are those of a
run that diagnoses everything, and no other failure was diagnosed (no mistaken reference run, no rerun of the
student's code for a message nobody reads)."""
from __future__ import annotations

import pytest

from grader.mistakes import module_of, reaching
from grader.mistakes.model import apply
from grader.results import DIAGNOSED, Status
from grader.runner import run_exercise, shown_first
from grader.sandbox.host.inprocess import in_process
from tests.grader.graderkit import copy_solutions

# (mistake, exercise graded): a mistake of the exercise itself, and shared pieces' mistakes reaching later exercises,
# each failing several checks of different tasks there
CASES = [("softmax_wrong_axis", "attention"), ("softmax_wrong_axis", "sampling"), ("apply_mask_inverted", "block"),
         ("gelu_exact_erf", "block"), ("attention_no_scale", "attention_backward")]


def test_the_rule():
    assert shown_first(3, None)
    assert shown_first(2, 3)
    assert not shown_first(3, 3)  # the same task: the check that ran first is shown
    assert not shown_first(4, 3)


@pytest.mark.parametrize(("mistake_id", "exercise"), CASES)
def test_only_the_failure_shown_is_diagnosed(tmp_path, mistake_id, exercise):
    mistake = next(m for m in reaching(exercise) if m.id == mistake_id)
    impl = copy_solutions(tmp_path)
    path = impl / f"{module_of(mistake.id)}.py"
    path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
    every = run_exercise(exercise, lambda e: in_process(impl, e))
    shown = run_exercise(exercise, lambda e: in_process(impl, e), diagnose_all=False)
    failing = [check for check in every.checks if check.status == Status.FAILED]
    assert len(failing) >= 2 and sum(check.mistake is not None for check in failing) >= 2, "a case for the rule"
    said = ("name", "status", "message", "mistake", "hint", "points", "blocked_by")
    assert [getattr(shown.first_failure, a) for a in said] == [getattr(every.first_failure, a) for a in said]
    assert shown.first_failure.mistake is not None
    others = [check for check in shown.checks if check is not shown.first_failure]
    assert not [check.name for check in others if check.mistake or DIAGNOSED in check.message]
    assert [(c.name, c.status, c.points) for c in shown.checks] == [(c.name, c.status, c.points) for c in every.checks]


@pytest.mark.parametrize("mistake_id", ["gelu_exact_erf", "softmax_wrong_axis", "layer_norm_unbiased_variance"])
def test_a_wrong_number_is_diagnosed_as_a_wrong_array_is(tmp_path, mistake_id):
    """training's first failure is gpt_backward's loss, a number: a shared piece's mistake is named there (it was
    not: numbers were never traced to their reference call)."""
    mistake = next(m for m in reaching("training") if m.id == mistake_id)
    impl = copy_solutions(tmp_path)
    path = impl / f"{module_of(mistake.id)}.py"
    path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
    shown = run_exercise("training", lambda e: in_process(impl, e), diagnose_all=False).first_failure
    assert " loss returned " in shown.message.splitlines()[0]
    assert shown.mistake == mistake_id, shown.message
