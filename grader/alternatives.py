"""Another known variant of a shared computation: a small declared table of alternatives per concept.

Where public code often computes a piece of an exercise by another known formula (another feature map for linear
attention, another pairing of the features in RoPE), the piece's line of the reference is listed once here with
its alternatives, each a patch of that line. A wrong value that one alternative explains is named
``other_algorithm`` ("the feature map was ReLU (max(x, 0)) instead of elu(x) + 1"), in every function whose
reference reaches that piece (the patched module with its users loaded again on top: ``grader.mistaken``), like
the mistakes by concept. Alternatives already in an exercise's own catalogue (elu without the +1, RoPE's full
"rotate half" convention) are not repeated here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from . import mistakes
from .mistakes import generic
from .mistakes.model import Mistake, Replacements


@dataclass(frozen=True)
class Concept:
    """One shared piece: the module whose reference computes it, what it is, and its known alternatives
    (name, patch of the reference, what the student's value looks like)."""

    module: str
    what: str
    alternatives: tuple[tuple[str, Replacements, str], ...]


FEATURE_MAP = "np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))"
ROPE_GATHER = "x_even, x_odd = x[..., 0::2], x[..., 1::2]"
ROPE_WRITE = ("rotated = np.empty_like(x)\n    rotated[..., 0::2] = x_even * cos - x_odd * sin\n"
              "    rotated[..., 1::2] = x_even * sin + x_odd * cos")
TWICE = "np.concatenate([{0}, {0}], axis=-1)"
REPEATED = "np.repeat({0}, 2, axis=-1)"

CONCEPTS = (
    Concept("linear_attention", "the feature map of linear attention (elu(x) + 1)", (
        ("relu", ((FEATURE_MAP, "np.maximum(x, 0)"),), "the feature map was ReLU (max(x, 0)) instead of elu(x) + 1"),
        ("relu_plus_one", ((FEATURE_MAP, "np.maximum(x, 0) + 1"),),
         "the feature map was ReLU + 1 instead of elu(x) + 1"),
        ("exp", ((FEATURE_MAP, "np.exp(x)"),), "the feature map was exp(x) instead of elu(x) + 1"),
        ("identity", ((FEATURE_MAP, "x"),), "no feature map was applied (phi(x) = x) instead of elu(x) + 1"),
        ("softplus", ((FEATURE_MAP, "np.logaddexp(0, x)"),),
         "the feature map was softplus (log(1 + exp(x))) instead of elu(x) + 1"),
    )),
    Concept("positional", "the pairing of features in RoPE (interleaved pairs 2i, 2i+1)", (
        ("gather_interleaved_write_halves", ((ROPE_WRITE, (
            "rotated = np.empty_like(x)\n    rotated[..., : d // 2] = x_even * cos - x_odd * sin\n"
            "    rotated[..., d // 2:] = x_even * sin + x_odd * cos")),),
         "two RoPE conventions were mixed: the pairs were taken interleaved (2i, 2i+1) but written back as two "
         "halves"),
        ("gather_halves_write_interleaved", ((ROPE_GATHER, "x_even, x_odd = x[..., : d // 2], x[..., d // 2:]"),),
         "two RoPE conventions were mixed: the pairs were taken as two halves (i, i + d/2) but written back "
         "interleaved"),
        ("interleaved_with_rotate_half", ((ROPE_WRITE, (
            f"rotated = x * {TWICE.format('cos')} + np.concatenate([-x_odd, x_even], axis=-1) * "
            f"{TWICE.format('sin')}")),),
         "two RoPE conventions were mixed: the pairs were taken interleaved but rotated with 'rotate half' "
         "(concatenated halves, each angle's table written twice one after the other)"),
        ("halves_with_repeated_table", ((ROPE_WRITE, (
            f"rotated = x * {REPEATED.format('cos')} + np.concatenate([-x[..., d // 2:], x[..., : d // 2]], "
            f"axis=-1) * {REPEATED.format('sin')}")),),
         "two RoPE conventions were mixed: 'rotate half' (feature i with i + d/2) with an angle table whose "
         "entries are repeated side by side (the interleaved layout)"),
    )),
)


@lru_cache(maxsize=None)
def reaching(module: str) -> tuple[tuple[Mistake, str, Replacements], ...]:
    """(mistake naming the alternative, the module it patches, the patch) for every alternative whose piece the
    functions of ``module`` use (its own module's first)."""
    found = []
    for concept in sorted(CONCEPTS, key=lambda c: c.module != module):
        if concept.module != module and module not in mistakes.users_of_module(concept.module):
            continue
        for name, patch, looks_like in concept.alternatives:
            found.append((replace(generic.OTHER_ALGORITHM, id=f"{generic.OTHER_ALGORITHM.id}:{concept.module}:{name}",
                                  looks_like=looks_like), concept.module, patch))
    return tuple(found)


def named(run: Mistake) -> Mistake:
    """The family a matching alternative is reported as."""
    return replace(run, id=run.id.split(":", 1)[0])
