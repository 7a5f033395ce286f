"""The ``@check`` decorator: points, task number and visibility of a check, without importing pytest."""
from __future__ import annotations

from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

VISIBILITIES = ("visible", "hidden")


def check(points: float, task: int = 1, visibility: str = "visible", heavy: bool = False) -> Callable[[F], F]:
    """Mark a check function with its points, its task (matching the hints) and its visibility.

    ``heavy``: the check takes far longer than the others (a memory check at n in the thousands);
    ``attnkit check``, which checks two exercises at once, starts the exercises holding one first.

    ``hidden`` checks are left out of the student release and shown to students only after
    grading (Gradescope ``after_published``); nbgrader puts them between HIDDEN TESTS markers.
    """
    if points <= 0:
        raise ValueError("a check must be worth a positive number of points")
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {VISIBILITIES}")

    def mark(function: F) -> F:
        function.attnkit_points = float(points)
        function.attnkit_task = int(task)
        function.attnkit_visibility = visibility
        function.attnkit_heavy = bool(heavy)
        return function

    return mark
