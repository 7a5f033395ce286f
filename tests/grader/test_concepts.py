"""Mistakes by concept (issue 21 item 1): a mistake of a shared piece (softmax, apply_mask,
scaled_dot_product_attention...) reaches every function whose reference uses that piece
(``grader.mistakes.reaching``), and is diagnosed there too: the patched shared piece, with the modules that use
it loaded again on top of it, is that function's mistaken reference (``grader.diagnosis.mistaken_reference``).

Every (exercise, concept) pair is listed: the concept's mutant, made in the shared module, is graded in each
exercise that uses it (in process, so the exercise runs on the mutated piece) as ``attnkit check`` grades it (only
the failure shown is diagnosed); when the exercise loses points, the failure shown is named. A concept added to a
shared module, or an exercise added that uses one, is covered by being defined."""
import pytest

from grader import curriculum
from grader.mistakes import module_of, reaching, users_of_module
from grader.mistakes.model import apply
from grader.results import Status
from grader.runner import run_exercise
from grader.sandbox.host.inprocess import in_process
from tests.grader.graderkit import copy_solutions

pytestmark = pytest.mark.slow
PAIRS = [(exercise.id, mistake) for exercise in curriculum.exercises() for mistake in reaching(exercise.id)]


def test_the_registry_lists_the_concepts_reaching_each_module():
    assert {mistake.id for mistake in reaching("multihead")} >= {"attention_no_scale", "apply_mask_inverted",
                                                                  "softmax_wrong_axis"}
    assert reaching("softmax") == () and "gqa" in users_of_module("multihead")
    assert len(PAIRS) >= 150


@pytest.mark.parametrize("exercise", sorted({exercise for exercise, _ in PAIRS}))
def test_every_concept_reaching_an_exercise_is_named_there(tmp_path, exercise):
    unnamed = []
    for number, mistake in enumerate(mistake for owner, mistake in PAIRS if owner == exercise):
        impl = copy_solutions(tmp_path / str(number))
        path = impl / f"{module_of(mistake.id)}.py"
        path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
        result = run_exercise(exercise, lambda e, impl=impl: in_process(impl, e), diagnose_all=False)
        failed = [check for check in result.checks if check.status != Status.PASSED]
        assert not [check for check in failed if check.status == Status.GRADER_ERROR], (mistake.id, failed)
        shown = result.first_failure
        if shown is not None and not shown.mistake:
            unnamed.append((mistake.id, shown.name, shown.message))
    assert not unnamed, unnamed
