"""Under ``attnkit check`` a wrong discrete value (token ids) in an exercise built on one that fails its own checks
names no mistake (``grader.blame.unname_cascades``): a few integers cannot tell one upstream mistake from another.
Real numbers keep their diagnosis, and ``attnkit grade`` (the reference answers for other exercises) is not touched."""
from __future__ import annotations

import pytest

from grader.blame import UPSTREAM_FAILS, cascade_suspects, unname_cascades
from grader.mistakes import all_mistakes
from grader.results import DIAGNOSED, CheckResult, ExerciseResult, Status
from grader.sandbox.host.spawner import Zygote
from tests.grader.graderkit import mutant
from tests.sessionkit import run_folder

SAID = "generate(prompt=[2, 9]) returned wrong values: at index (2,) got 5, expected 6"


def _failed(exercise: str, mistake: str = "", discrete: bool = False, name: str = "check") -> CheckResult:
    message = SAID + (f"{DIAGNOSED}a chance lookalike" if mistake else "")
    return CheckResult(exercise, name, "a check", 1, 0.0, 1.0, Status.FAILED, message=message, mistake=mistake,
                       hint="a hint" if mistake else "", discrete=discrete)


def _passed(exercise: str) -> ExerciseResult:
    return ExerciseResult(exercise, [CheckResult(exercise, "check", "a check", 1, 1.0, 1.0, Status.PASSED)])


def test_a_discrete_diagnosis_under_a_failing_exercise_is_taken_off():
    sampling = ExerciseResult("sampling", [_failed("sampling", "attention_divide_by_dk", discrete=True),
                                           _failed("sampling", "softmax_wrong_axis", name="probs")])
    results = [ExerciseResult("block", [_failed("block", "block_no_biases")]), sampling]
    unname_cascades(results, {"block"})
    tokens, probs = sampling.checks
    assert (tokens.mistake, tokens.hint, tokens.message) == ("", "", SAID)  # the report says to fix block first
    assert probs.mistake == "softmax_wrong_axis" and DIAGNOSED in probs.message  # real numbers keep it


def test_a_discrete_diagnosis_stands_when_everything_below_passes():
    sampling = ExerciseResult("sampling", [_failed("sampling", "sampling_temperature_multiplied", discrete=True)])
    unname_cascades([_passed("block"), sampling], set())
    assert sampling.checks[0].mistake == "sampling_temperature_multiplied"
    unname_cascades([sampling], {"tiled_attention"})  # an exercise sampling does not build on
    assert sampling.checks[0].mistake == "sampling_temperature_multiplied"


def test_a_failing_exercise_outside_the_run_is_named_in_the_message():
    sampling = ExerciseResult("sampling", [_failed("sampling", "attention_divide_by_dk", discrete=True)])
    assert cascade_suspects([sampling]) >= {"block", "gpt", "softmax"}
    assert cascade_suspects([ExerciseResult("sampling", [_failed("sampling", "x")])]) == set()  # real numbers
    unname_cascades([sampling], {"gpt", "block"})
    assert sampling.checks[0].message == SAID + UPSTREAM_FAILS.format(exercise="sampling", sibling="block")


@pytest.fixture(scope="module")
def zygote():
    with Zygote() as zygote:
        yield zygote


def test_a_block_mistake_is_named_in_block_and_gpt_not_by_chance_in_sampling(tmp_path, zygote):
    """block without its biases: block names it, gpt's logits name it as its concept, sampling's tokens (named as
    the scores divided by d_k before) name nothing and point to the failing exercise."""
    impl = mutant(tmp_path, all_mistakes()["block_no_biases"])
    results = {r.exercise: r for r in run_folder(zygote, impl, ("block", "gpt", "sampling"), lanes=2)}
    assert "block_no_biases" in {c.mistake for c in results["block"].checks}
    assert "block_no_biases" in {c.mistake for c in results["gpt"].checks}
    tokens = [c for c in results["sampling"].checks if c.status == Status.FAILED and c.discrete]
    assert tokens and all(not c.mistake and DIAGNOSED not in c.message for c in tokens)
    alone = run_folder(zygote, impl, ("sampling",), lanes=2)[0]  # block and gpt checked too (in lanes), to know
    tokens = [c for c in alone.checks if c.status == Status.FAILED and c.discrete]
    assert tokens and all(not c.mistake and "uses your block, which fails its own checks" in c.message
                          for c in tokens)


def test_grade_keeps_the_names_of_a_sampling_mistake(tmp_path, zygote):
    """The exercise's own mistake, with everything below it correct, is still named on its tokens; and grading
    (the reference answering for gpt) never takes a name off."""
    impl = mutant(tmp_path, all_mistakes()["sampling_prompt_end_fed_twice"])
    for own in (True, False):
        result = run_folder(zygote, impl, ("sampling",), own_siblings=own)[0]
        assert "sampling_prompt_end_fed_twice" in {c.mistake for c in result.checks}, own
