"""Classic mistakes, each one textual patch of a copy of solutions/, lose points and are diagnosed by name."""
import pytest

from grader import curriculum
from grader.results import PASSED
from tests.grader.graderkit import copy_solutions, dependants_closure, run
from tests.grader.mistake_patches import PATCHES


@pytest.mark.parametrize("mistake, exercise, module, old, new", PATCHES, ids=[p[0] for p in PATCHES])
def test_classic_mistake_is_diagnosed(tmp_path, mistake, exercise, module, old, new):
    impl = copy_solutions(tmp_path)
    path = impl / f"{module}.py"
    source = path.read_text()
    assert source.count(old) == 1, f"patch for {mistake} does not apply to solutions/{module}.py"
    path.write_text(source.replace(old, new))

    affected = dependants_closure(exercise)
    # tiled_attention imports nothing and its memory check is the slowest: run it only when it is the target
    for other in [e for e in curriculum.ids() if e == exercise or e != "tiled_attention"]:
        result = run(impl, other)
        assert not [c for c in result.checks if c.status == "grader_error"], [c.message for c in result.checks]
        if other == exercise:
            assert result.score < result.max_score, f"{mistake} lost no points in {exercise}"
            diagnosed = [c.mistake for c in result.checks if c.status != PASSED]
            assert mistake in diagnosed, f"{mistake} diagnosed as {diagnosed}: " + "\n".join(
                c.message for c in result.checks if c.status != PASSED)
            assert result.first_failure.mistake == mistake, (result.first_failure.name, result.first_failure.mistake)
        elif other not in affected:
            assert result.score == result.max_score, f"{mistake} changed the score of unrelated exercise {other}"


def test_at_least_fifteen_mistakes_across_every_exercise():
    assert len({p[0] for p in PATCHES}) == len(PATCHES) >= 15
    assert {p[1] for p in PATCHES} == set(curriculum.ids())
