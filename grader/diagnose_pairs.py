"""Two mistakes at once: when no single mistake explains a wrong value, pairs of the function's own patch mistakes.

Bounded: the single mistakes are ranked by how close their outputs came to the student's value (mean absolute
difference, same shape only), and only pairs of the :data:`PARTNERS` closest are tried, at most
``PARTNERS * (PARTNERS - 1) / 2`` reference runs per failing check; each pair's mistaken reference is built once
per process (``grader.mistaken``) and its results are memoised like the reference's. Two patches that touch the
same line cannot be applied together: that pair is skipped.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .mistakes.model import Mistake

PARTNERS = 8


def closeness(got: np.ndarray, candidate) -> float:
    """Mean absolute difference between ``got`` and a mistake's output (inf when it cannot be compared)."""
    if not isinstance(candidate, np.ndarray) or candidate.shape != got.shape or candidate.dtype.kind not in "fiub":
        return float("inf")
    with np.errstate(all="ignore"):
        difference = np.abs(got.astype(np.float64) - candidate.astype(np.float64))
    finite = difference[np.isfinite(difference)]
    mismatched = difference.size - finite.size
    return float(finite.mean() if finite.size else 0.0) + mismatched


def pairs(singles: list[tuple[Mistake, object]], got: np.ndarray) -> list[Mistake]:
    """The pairs to try, closest single mistakes first: ``singles`` are (patch mistake, its output) of one module."""
    ranked = sorted((closeness(got, output), index, mistake) for index, (mistake, output) in enumerate(singles)
                    if mistake.patch and mistake.compute is None)
    chosen = [mistake for _, _, mistake in ranked[:PARTNERS]]
    return [combined(first, second) for first, second in combinations(chosen, 2)]


def combined(first: Mistake, second: Mistake) -> Mistake:
    """The two mistakes as one, named by both: id ``first+second``."""
    return Mistake(id=f"{first.id}+{second.id}", functions=first.functions,
                   looks_like=f"two mistakes at once: {first.looks_like}; and {second.looks_like}",
                   hint=first.hint, patch=first.patch + second.patch)
