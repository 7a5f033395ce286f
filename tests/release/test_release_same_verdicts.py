"""The student release judges as the checkout does: on the public checks, the recording answers ``ref`` and
the mistake diagnosis with the verdicts, messages and named mistakes of the live reference — for the
reference solutions, the untouched stubs, and one classic mistake of every exercise (its mutant)."""
from __future__ import annotations

from pathlib import Path

import pytest

from attnkit.release.recording import Store
from attnkit.release.replay import Replay
from grader import curriculum
from grader.mistakes import module_of, registry
from grader.mistakes.model import apply
from grader.runner import discover, execute
from grader.sandbox.host.inprocess import in_process
from tests.grader.graderkit import SOLUTIONS, copy_solutions

STUBS = SOLUTIONS.parent / "exercises"


def first_mistakes():
    """One mistake per exercise: the first registered one that has a mutant."""
    chosen = []
    for exercise, (_, mistakes) in registry().items():
        found = next((m for m in mistakes if m.mutant_patch), None)
        if found is not None:
            chosen.append((exercise, found))
    return chosen


def verdicts(impl_root: Path, exercise: str, reference) -> list[tuple]:
    specs = [spec for spec in discover(exercise) if spec.visibility != "hidden"]
    results = [execute(spec, in_process(impl_root, exercise), reference) for spec in specs]
    return [(r.name, r.status, r.points, r.mistake, r.hint, r.message, r.blocked_by) for r in results]


@pytest.fixture(scope="module")
def replayed(release):
    return Store.load(release / "grader" / "recorded")


def same(impl_root: Path, exercise: str, store: Store) -> None:
    live = verdicts(impl_root, exercise, None)
    replay = verdicts(impl_root, exercise, Replay(store).reference())
    assert replay == live


@pytest.mark.parametrize("exercise", curriculum.ids())
def test_reference_and_stubs(exercise, replayed):
    same(SOLUTIONS, exercise, replayed)
    same(STUBS, exercise, replayed)


@pytest.mark.parametrize("exercise,mistake", first_mistakes(), ids=[m.id for _, m in first_mistakes()])
def test_a_classic_mistake(exercise, mistake, replayed, tmp_path):
    impl = copy_solutions(tmp_path)
    path = impl / f"{module_of(mistake.id)}.py"
    path.write_text(apply(path.read_text(), mistake.mutant_patch, mistake.id))
    same(impl, exercise, replayed)
