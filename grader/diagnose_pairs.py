"""Two mistakes at once: when no single mistake explains a wrong value, pairs of the function's own patch mistakes.

Bounded: the single mistakes are ranked by how much of the student's value their outputs account for (entries
they match where the reference does not, then the mean absolute difference); the :data:`ANCHORS` best are paired
with every other one, and the :data:`PARTNERS` best with each other: for n mistakes at most
``2 n + PARTNERS * (PARTNERS - 1) / 2`` reference runs per failing check (49 for the 17 of attention);
each pair's mistaken reference is built once per process (``grader.mistaken``) and its results are memoised like
the reference's. Two patches that touch the same line cannot be applied together: that pair is skipped.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .mistakes.model import Mistake

ANCHORS, PARTNERS = 2, 6


def score(got: np.ndarray, candidate, reference) -> tuple[int, float]:
    """How well a single mistake's output accounts for ``got``, for ranking (smaller first): minus the number of
    entries where it matches ``got`` although the reference does not, then the mean absolute difference."""
    if not isinstance(candidate, np.ndarray) or candidate.shape != got.shape or candidate.dtype.kind not in "fiub":
        return 0, float("inf")
    with np.errstate(all="ignore"):
        mine = np.isclose(candidate, got, rtol=1e-5, atol=1e-6, equal_nan=True)
        theirs = np.isclose(reference, got, rtol=1e-5, atol=1e-6, equal_nan=True) if np.shape(reference) == \
            got.shape else np.zeros(got.shape, dtype=bool)
        difference = np.abs(got.astype(np.float64) - candidate.astype(np.float64))
    finite = difference[np.isfinite(difference)]
    return -int((mine & ~theirs).sum()), float(finite.mean() if finite.size else 0.0) + difference.size - finite.size


def pairs(singles: list[tuple[Mistake, object]], got: np.ndarray, reference) -> list[Mistake]:
    """The pairs to try, best single mistakes first: ``singles`` are (patch mistake, its output) of one module."""
    ranked = sorted((score(got, output, reference), index, mistake) for index, (mistake, output) in enumerate(singles)
                    if mistake.patch and mistake.compute is None)
    order = [mistake for _, _, mistake in ranked]
    chosen = [*((order[i], other) for i in range(min(ANCHORS, len(order))) for other in order[i + 1:]),
              *combinations(order[:PARTNERS], 2)]
    return [combined(first, second) for first, second in dict.fromkeys(chosen)]


def combined(first: Mistake, second: Mistake) -> Mistake:
    """The two mistakes as one, named by both: id ``first+second``."""
    return Mistake(id=f"{first.id}+{second.id}", functions=first.functions,
                   looks_like=f"two mistakes at once: {first.looks_like}; and {second.looks_like}",
                   hint=first.hint, patch=first.patch + second.patch)
