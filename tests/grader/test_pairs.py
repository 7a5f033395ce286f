"""Two mistakes at once (grader.diagnose_pairs): when no single mistake explains a value, pairs of the function's
own mistakes are tried, closest first and bounded, and a match names both."""
from itertools import combinations

import numpy as np
import pytest

from grader.compare import CheckFailed, expect_close, matches
from grader.diagnose_pairs import ANCHORS, PARTNERS, pairs
from grader.diagnosis import Session
from grader.mistaken import mistaken_reference
from grader.mistakes import for_function
from grader.mistakes.model import PatchError, apply
from grader.reference import reference
from grader.results import Status
from tests.grader.graderkit import copy_solutions, run

SINUSOIDAL = [m for m in for_function("positional", "sinusoidal_encoding") if m.patch]


def failure_of(got, expected) -> CheckFailed:
    with pytest.raises(CheckFailed) as caught:
        expect_close(got, expected, call="f(x)")
    return caught.value


def composable(first, second) -> bool:
    try:
        mistaken_reference(f"{first.id}+{second.id}")
    except PatchError:
        return False
    return True


def test_every_pair_of_sinusoidal_mistakes_that_differs_from_each_single_one_is_named_by_both():
    session = Session(reference())
    expected = session.ref.positional.sinusoidal_encoding(6, 8)
    singles = {m.id: mistaken_reference(m.id)["positional"].sinusoidal_encoding(6, 8) for m in SINUSOIDAL}
    tried = 0
    for first, second in combinations(SINUSOIDAL, 2):
        if not composable(first, second):
            continue
        got = mistaken_reference(f"{first.id}+{second.id}")["positional"].sinusoidal_encoding(6, 8)
        if any(matches(got, output, 1e-5, 1e-6) for output in (expected, *singles.values())):
            continue  # the pair looks like one mistake (or none): a single diagnosis is the right answer
        tried += 1
        found = session.diagnose(failure_of(got, expected))
        assert found is not None and set(found.id.split("+")) == {first.id, second.id}, (first.id, second.id, found)
        assert "two mistakes at once" in found.looks_like
    assert tried >= 10


def test_pairs_are_bounded_and_best_first():
    got = np.zeros((6, 8))
    singles = [(mistake, np.full((6, 8), float(index))) for index, mistake in enumerate(SINUSOIDAL)]
    found = pairs(singles, got, np.ones((6, 8)))
    assert len(found) <= ANCHORS * len(singles) + PARTNERS * (PARTNERS - 1) // 2
    assert found[0].id == f"{SINUSOIDAL[0].id}+{SINUSOIDAL[1].id}"


def test_a_two_mistake_submission_is_named_in_its_exercise(tmp_path):
    first, second = (next(m for m in SINUSOIDAL if m.id == name)
                     for name in ("sinusoidal_sin_cos_swapped", "sinusoidal_exponent_i"))
    impl = copy_solutions(tmp_path)
    path = impl / "positional.py"
    path.write_text(apply(path.read_text(), first.patch + second.patch, "pair"))
    failed = [c for c in run(impl, "positional").checks if c.status != Status.PASSED]
    assert any(set(c.mistake.split("+")) == {first.id, second.id} for c in failed), [c.mistake for c in failed]
