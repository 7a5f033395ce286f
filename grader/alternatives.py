"""Another known variant of a shared computation: a small declared table of alternatives per concept.

Where public code often computes a piece of an exercise by another known formula (another feature map for linear
attention, another pairing of the features in RoPE), the exercise's mistakes module declares the piece's line of
the reference with its alternatives, each a patch of that line (``ALTERNATIVES``, an
:class:`~grader.mistakes.model.Alternatives`; adding one touches that exercise's files only). A wrong value that one
alternative explains is named ``other_algorithm`` ("the feature map was ReLU (max(x, 0)) instead of elu(x) + 1"),
in every function whose reference reaches that piece (the patched module with its users loaded again on top:
``grader.mistaken``), like the mistakes by concept. Alternatives already in an exercise's own catalogue (elu
without the +1, RoPE's full "rotate half" convention) are not repeated there.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from . import curriculum, mistakes
from .mistakes import generic
from .mistakes.model import Alternatives, Mistake, Replacements


@dataclass(frozen=True)
class Concept:
    """One shared piece: the module whose reference computes it, what it is, and its known alternatives
    (name, patch of the reference, what the student's value looks like)."""

    module: str
    what: str
    alternatives: tuple[tuple[str, Replacements, str], ...]


@lru_cache(maxsize=1)
def concepts() -> tuple[Concept, ...]:
    """Every exercise's declared alternatives (``ALTERNATIVES`` in ``grader/mistakes/<exercise>.py``), in the
    curriculum's order."""
    found = []
    for exercise in curriculum.exercises():
        declared = getattr(mistakes.module_of_exercise(exercise.id), "ALTERNATIVES", None)
        if isinstance(declared, Alternatives):
            found.append(Concept(exercise.id, declared.what, declared.variants))
    return tuple(found)


@lru_cache(maxsize=None)
def reaching(module: str) -> tuple[tuple[Mistake, str, Replacements], ...]:
    """(mistake naming the alternative, the module it patches, the patch) for every alternative whose piece the
    functions of ``module`` use (its own module's first)."""
    found = []
    for concept in sorted(concepts(), key=lambda c: c.module != module):
        if concept.module != module and module not in mistakes.users_of_module(concept.module):
            continue
        for name, patch, looks_like in concept.alternatives:
            found.append((replace(generic.OTHER_ALGORITHM, id=f"{generic.OTHER_ALGORITHM.id}:{concept.module}:{name}",
                                  looks_like=looks_like), concept.module, patch))
    return tuple(found)


def named(run: Mistake) -> Mistake:
    """The family a matching alternative is reported as."""
    return replace(run, id=run.id.split(":", 1)[0])
