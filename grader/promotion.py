"""Where a float32 input became float64: the first exercise used by this one whose own dtype check fails.

A dtype failure in an exercise that calls others (multihead calls attention, which calls softmax) may come from
any of them when the student's own siblings run (``attnkit check``, the pytest plugin, nbgrader). Before the
failing exercise is blamed, the dtype checks of the exercises it uses run against the same implementation, in
the curriculum's order (the earliest first: a promoting softmax is found before the attention that calls it);
the first that fails names the module where the promotion happens. Under ``attnkit grade`` the other exercises
are answered by the reference, their dtype checks pass, and the exercise's own code is named. Only the wording
of the diagnosis depends on it, never a point.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import curriculum
from .mistakes import generic
from .mistakes.model import Mistake


def used_by(exercise: str) -> tuple[str, ...]:
    """The exercises ``exercise`` uses (transitively), in curriculum order."""
    found, todo = set(), list(curriculum.get(exercise).depends_on)
    while todo:
        other = todo.pop()
        if other not in found:
            found.add(other)
            todo.extend(curriculum.get(other).depends_on)
    return tuple(e for e in curriculum.ids() if e in found)


def promoting_dependency(exercise: str, impl: Any, reference: Any = None) -> Mistake | None:
    """The diagnosis naming the first exercise used by ``exercise`` whose dtype check fails on ``impl``, or None."""
    from .runner import discover, execute

    for other in used_by(exercise):
        for spec in discover(other):
            if spec.rule != "dtype":
                continue
            result = execute(spec, impl, reference)
            if result.status != "passed" and "dtype" in result.message.split("\n", 1)[0]:
                module = curriculum.get(other).id
                return replace(generic.DTYPE_IN_DEPENDENCY, looks_like=(
                    f"the dtype changed inside your {module}.py (exercise {other}), which this exercise uses: its "
                    f"own dtype check fails ({result.message.splitlines()[0]})"))
    return None
