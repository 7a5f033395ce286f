"""The ``@check`` decorator: points, task number and visibility of a check, without importing pytest."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable)
ATTRIBUTE = "attnkit_marks"   # where @check keeps a function's Marks

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
    ``attnkit check``, which checks several exercises at once, starts the exercises holding one first.

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
        setattr(function, ATTRIBUTE, Marks(float(points), int(task), visibility, bool(heavy), rule))
        return function

    return mark


@dataclass(frozen=True)
class Marks:
    """What ``@check`` says of a check function."""

    points: float
    task: int
    visibility: str
    heavy: bool
    rule: str


def of(function: Any) -> Marks | None:
    """The :class:`Marks` ``@check`` gave ``function`` (None for a function it did not decorate)."""
    marks = vars(function).get(ATTRIBUTE) if hasattr(function, "__dict__") else None
    return marks if isinstance(marks, Marks) else None
