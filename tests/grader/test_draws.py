"""A call that draws from a random generator, run again by the diagnosis (``grader.draws``): every run starts from
the generator's state when the check made the call, whatever the runs before it drew."""
import numpy as np
import pytest

from grader import draws
from grader.checks.check_sampling import model
from grader.compare import CheckFailed, expect_close
from grader.diagnosis import Session, mistaken_reference
from grader.mistakes import by_id
from grader.reference import reference


def test_a_copy_draws_what_the_generator_would_and_leaves_it_where_it_was():
    rng, legacy = np.random.default_rng(3), np.random.RandomState(3)
    weights = np.arange(4.0)
    args = (weights, {"rng": rng, "more": [legacy]})
    assert draws.holds(args) and not draws.holds((weights, {"n": 1}, [None]))
    copied = draws.copied(args)
    assert copied[0] is weights   # arrays are shared, only generators copied
    assert copied[1]["rng"] is not rng and copied[1]["more"][0] is not legacy
    assert copied[1]["rng"].random() == np.random.default_rng(3).random()
    assert copied[1]["more"][0].random_sample() == np.random.RandomState(3).random_sample()
    assert rng.random() == np.random.default_rng(3).random()   # the original did not move


def test_each_run_of_a_function_alone_draws_the_same_numbers():
    rng = np.random.default_rng(8)
    twice = draws.alone(lambda generator, n: generator.random(n))
    assert np.array_equal(twice(rng, 3), twice(rng, 3))
    assert np.array_equal(twice(rng, 3), rng.random(3))


def sampled_generate(session, seed):
    params = model(np.random.default_rng(6))   # a model whose tokens the two mistakes change
    rng = np.random.default_rng(seed)
    expected = session.ref.sampling.generate([2, 9], params, 2, 3, rng, temperature=1.0, use_cache=False)
    return params, rng, expected


@pytest.mark.parametrize("mistake_id", ["apply_mask_zero", "attention_mask_ignored"])
def test_a_sampled_generate_is_diagnosed_on_the_draws_the_check_made(mistake_id):
    """Mistakes tried before the right one draw other numbers (one raises halfway through generating, a setting
    draws none): the right one still draws the check's first numbers, as the student's code did."""
    session = Session(reference())
    params, rng, expected = sampled_generate(session, 5)
    assert rng.random() == np.random.default_rng(5).random(4)[-1]   # the reference drew from the check's generator
    wrong = mistaken_reference(mistake_id)["sampling"].generate([2, 9], params, 2, 3, np.random.default_rng(5),
                                                                temperature=1.0, use_cache=False)
    assert not np.array_equal(wrong, expected)
    with pytest.raises(CheckFailed) as caught:
        expect_close(wrong, expected, call="generate(...)")
    found = session.diagnose(caught.value)
    assert found is not None, mistake_id
    again = mistaken_reference(found.id)["sampling"].generate([2, 9], params, 2, 3, np.random.default_rng(5),
                                                              temperature=1.0, use_cache=False)
    assert np.array_equal(again, wrong)   # what it names gives the student's tokens on the check's seed


def test_every_run_of_a_recorded_call_starts_from_the_checks_state():
    """Runs on the reference itself (no memo: other settings, changed arguments) draw the check's numbers each time,
    and a mistaken reference's run draws what it draws on a generator seeded alike."""
    session = Session(reference())
    params, _, expected = sampled_generate(session, 7)
    call = session.calls[-1]
    again = call.runs(reference().sampling.generate)
    assert all(np.array_equal(again(*call.args, **call.kwargs), expected) for _ in range(3))
    mistake = by_id()["apply_mask_zero"][1]
    fresh = mistaken_reference(mistake.id)["sampling"].generate([2, 9], params, 2, 3, np.random.default_rng(7),
                                                                temperature=1.0, use_cache=False)
    assert np.array_equal(session._rerun(mistake, call), fresh)


def test_a_call_that_draws_is_memoised_by_the_generators_state_when_it_was_made():
    """A class's sampled generate is diagnosed once: the same call on the same seed has one digest (the reference
    having drawn from the check's generator since), another seed or a generator that has drawn has another."""
    digests = []
    for seed, drawn in ((5, 0), (5, 0), (6, 0), (5, 1)):
        session = Session(reference())
        rng = np.random.default_rng(seed)
        rng.random(drawn)
        session.ref.sampling.generate([2, 9], model(np.random.default_rng(6)), 2, 3, rng, temperature=1.0)
        digests.append(session.calls[-1].digest)
    assert digests[0] is not None and digests[0] == digests[1]
    assert len(set(digests[1:])) == 3
