"""The ``@check`` decorator: points, task number and visibility of a check, without importing pytest."""
from __future__ import annotations

from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

VISIBILITIES = ("visible", "hidden")
RULES = ("values", "dtype", "untouched", "raises", "memory")
PROPERTIES = {"dtype": "the results' dtypes", "untouched": "the caller's arrays left as they were",  # what each
              "raises": "the documented ValueError", "memory": "the memory used"}  # property check judges alone


def check(points: float, task: int = 1, visibility: str = "visible", heavy: bool = False,
          rule: str = "values") -> Callable[[F], F]:
    """Mark a check function with its points, its task (matching the hints), its visibility and its rule.

    ``rule`` names what the check judges: the ``values`` of results (the default), or one documented convention:
    the result's ``dtype``, the inputs left ``untouched``, a documented ``ValueError`` (``raises``), ``memory``.
    Every convention an exercise checks has a visible check (a hidden one tests the same rule on other inputs).
    A check of a convention judges it alone; its points are held while its calls return wrong values
    (``grader.runner.execute``), so a wrong value costs points in the value checks only.

    ``heavy``: the check takes far longer than the others (a memory check at n in the thousands);
    ``attnkit check``, which checks two exercises at once, starts the exercises holding one first.

    ``hidden`` checks are left out of the student release and shown to students only after
    grading (Gradescope ``after_published``); nbgrader puts them between HIDDEN TESTS markers.
    """
    if points <= 0:
        raise ValueError("a check must be worth a positive number of points")
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {VISIBILITIES}")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}")

    def mark(function: F) -> F:
        function.attnkit_points = float(points)
        function.attnkit_task = int(task)
        function.attnkit_visibility = visibility
        function.attnkit_heavy = bool(heavy)
        function.attnkit_rule = rule
        return function

    return mark
