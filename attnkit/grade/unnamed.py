"""Mistakes nobody catalogued, for the instructor: students whose failing checks returned the same wrong values.

A check that fails on a value no classic mistake explains keeps a fingerprint of it
(``grader.results.WrongValue``: the failing call, the value's shape and dtype, entries taken at fixed places).
Students are grouped when the same check failed on the same call with values equal at the diagnostic
tolerance (``grader.compare.DIAGNOSTIC_TOLERANCES``: a mistake made in float32, or summed in another order, is
still the same mistake). Every group of two or more students is listed (:func:`shared_unnamed`): exercise,
check, how many students, one example student and the first differing entry, largest groups first; the same
students grouped in several checks of one exercise are one row (one mistake), with every check named. A shared
wrong value is a mistake worth naming (``docs/adding-an-exercise.md``: a ``Mistake`` in ``grader/mistakes/``).
"""
from __future__ import annotations

import math

import numpy as np

from grader.compare import DIAGNOSTIC_TOLERANCES
from grader.results import SubmissionResult, WrongValue

LISTED = 20  # groups listed at most


def _same(one: WrongValue, other: WrongValue) -> bool:
    if (one.call, one.shape, len(one.sample)) != (other.call, other.shape, len(other.sample)):
        return False
    rtol, atol = max((DIAGNOSTIC_TOLERANCES.get(np.dtype(d), DIAGNOSTIC_TOLERANCES[np.dtype(np.float64)])
                      for d in (_dtype(one.dtype), _dtype(other.dtype))), key=lambda tolerance: tolerance[0])
    for a, b in zip(one.sample, other.sample):
        if isinstance(a, str) or isinstance(b, str):  # non-finite entries are kept as text: equal or not
            if a != b:
                return False
        elif not math.isclose(a, b, rel_tol=rtol, abs_tol=atol):
            return False
    return True


def _dtype(name: str) -> np.dtype:
    try:
        return np.dtype(name)
    except TypeError:
        return np.dtype(np.float64)


def shared_unnamed(results: list[SubmissionResult]) -> list[dict]:
    """Every group of two or more students sharing an undiagnosed wrong value (at most one group per student and
    check: the first failing call of that check decides)."""
    groups: dict[tuple[str, str], list[tuple[WrongValue, list[str]]]] = {}
    for result in sorted(results, key=lambda r: r.student):
        for exercise in result.exercises:
            for check in exercise.checks:
                if check.mistake or check.wrong is None:
                    continue
                found = groups.setdefault((check.exercise, check.name), [])
                group = next((members for value, members in found if _same(value, check.wrong)), None)
                if group is None:
                    found.append((check.wrong, [result.student]))
                else:
                    group.append(result.student)
    merged: dict[tuple[str, tuple[str, ...]], dict] = {}  # the same students in several checks: one mistake
    for (exercise, check), found in groups.items():
        for value, members in found:
            if len(members) < 2:
                continue
            row = merged.setdefault((exercise, tuple(members)), {
                "exercise": exercise, "check": check, "students": len(members), "example": members[0],
                "members": list(members), "call": value.call, "difference": value.difference, "checks": []})
            row["checks"].append(check)
    return sorted(merged.values(), key=lambda row: (-row["students"], row["exercise"], row["check"]))[:LISTED]
