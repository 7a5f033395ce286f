"""Every classic mistake, applied to a copy of solutions/ as its mutant, loses points in its own
exercise and is named there, whether a check sees a wrong value or an exception (graded through
the real sandbox: one zygote, a child per exercise).

The mutants come from the mistake definitions themselves (``Mistake.patch`` or ``Mistake.mutant``),
so a new mistake gets its end-to-end test by being defined.
"""

import pytest

from grader import curriculum
from grader.mistakes import all_mistakes, module_of, registry
from grader.mistakes.anchors import strip
from grader.mistakes.model import apply
from grader.results import Status
from grader.sandbox.host.spawner import Zygote
from tests.grader.graderkit import SOLUTIONS, dependants_closure, mutant
from tests.sessionkit import run_folder

MISTAKES = sorted(all_mistakes().values(), key=lambda m: m.id)
EXERCISE_OF = {m.id: exercise for exercise, (_, mistakes) in registry().items() for m in mistakes}
# Output-identical on every input (a fully masked row is 0/0 either way, every other row is the same
# softmax): the mistake tried first names both, and its looks_like says so.
TWINS = {"attention_mask_after_softmax_renormalised": "attention_fully_masked_nan"}


@pytest.fixture(scope="module")
def zygote():
    with Zygote() as zygote:
        yield zygote


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.id for m in MISTAKES])
def test_every_mistake_has_a_mutant_that_applies(mistake):
    """Every edit starts exactly once on its anchored line (grader.mistakes.anchors); loading the mistakes applied
    them all already, this names the mistake."""
    source = (SOLUTIONS / f"{module_of(mistake.id)}.py").read_text()
    assert mistake.mutant_patch, f"{mistake.id} has no patch or mutant: it cannot be tested end to end"
    for edits in (e for e in (mistake.patch, mistake.mutant) if e):
        assert strip(apply(source, edits, mistake.id)) != strip(source)


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.id for m in MISTAKES])
def test_mutant_loses_points_and_is_named(tmp_path, zygote, mistake):
    exercise = EXERCISE_OF[mistake.id]
    # exercises that do not use the mutated module must stay untouched; tiled_attention is the slowest to grade
    unrelated = [e for e in curriculum.ids() if e not in dependants_closure(exercise) and e != "tiled_attention"][:1]
    results = {r.exercise: r for r in run_folder(zygote, mutant(tmp_path, mistake), (exercise, *unrelated))}
    result = results[exercise]
    failed = [c for c in result.checks if c.status != Status.PASSED]
    messages = "\n".join(f"{c.name}: {c.mistake or '-'}: {c.message}" for c in failed)
    assert not [c for c in failed if c.status == Status.GRADER_ERROR], messages
    assert result.score < result.max_score, f"{mistake.id} lost no points in {exercise}"
    assert TWINS.get(mistake.id, mistake.id) in [c.mistake for c in failed], messages
    for other in unrelated:
        assert results[other].score == results[other].max_score, f"{mistake.id} changed the score of {other}"


def test_every_exercise_has_classic_mistakes():
    assert len(MISTAKES) >= 55
    assert {e for e in EXERCISE_OF.values()} >= {"softmax", "masking", "attention", "multihead", "positional",
                                                 "kv_cache", "tiled_attention"}
