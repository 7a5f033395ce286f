"""Classic mistakes, one module per exercise: ``grader/mistakes/<exercise>.py`` holds its
:class:`~grader.mistakes.model.Mistake` constants, in the order diagnosis tries them (the most
specific first). The registry is derived from the curriculum: an exercise without a module has
no classic mistakes yet.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path

from .. import curriculum
from .model import Alternatives, Mistake, apply

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def of_module(module) -> tuple[Mistake, ...]:
    """The Mistake constants of a mistakes module, in definition order."""
    return tuple(value for value in vars(module).values() if isinstance(value, Mistake))


def module_of_exercise(exercise: str):
    """The mistakes module of one exercise (``grader/mistakes/<exercise>.py``), or None when it has none."""
    name = f"{__name__}.{exercise}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


@lru_cache(maxsize=None)
def of_exercise(exercise: str) -> tuple[Mistake, ...]:
    """The classic mistakes of one exercise (none when it has no mistakes module). Where the reference solutions
    are at hand (development, the instructors' kits), every patch is applied to its solution first: one that no
    longer applies raises :class:`~grader.mistakes.anchors.PatchError` naming the mistake, never a mistake
    silently left out of every diagnosis."""
    module = module_of_exercise(exercise)
    found = () if module is None else of_module(module)
    solution = SOLUTIONS / f"{exercise}.py"
    if found and solution.is_file():
        verify(exercise, found, getattr(module, "ALTERNATIVES", None), solution.read_text(encoding="utf-8"))
    return found


def verify(exercise: str, found: tuple[Mistake, ...], alternatives: Alternatives | None, source: str) -> None:
    """Apply every patch, mutant and alternative of ``exercise`` to its solution's ``source``
    (:class:`~grader.mistakes.anchors.PatchError` naming the first that does not apply)."""
    where = f"grader/mistakes/{exercise}.py"
    for mistake in found:
        for edits in (mistake.patch, mistake.mutant):
            if edits:
                apply(source, edits, f"{where}, mistake {mistake.id} on solutions/{exercise}.py")
    for name, edits, _ in alternatives.variants if isinstance(alternatives, Alternatives) else ():
        apply(source, edits, f"{where}, alternative {name} on solutions/{exercise}.py")


@lru_cache(maxsize=1)
def registry() -> dict[str, tuple[str, tuple[Mistake, ...]]]:
    """exercise id -> (its solution module's name: the id, its mistakes), for every exercise of the curriculum."""
    return {e.id: (e.id, of_exercise(e.id)) for e in curriculum.exercises()}


@lru_cache(maxsize=None)
def for_function(module: str, function: str) -> tuple[Mistake, ...]:
    """The mistakes diagnosis tries for ``module.function``, most specific first: every registered one but
    those only a check names (a mutant alone, no patch and no function to compute it)."""
    return tuple(mistake for owner, mistakes in registry().values() if owner == module for mistake in mistakes
                 if function in mistake.functions
                 and (mistake.patch or mistake.compute is not None or not mistake.mutant))


@lru_cache(maxsize=1)
def by_id() -> dict[str, tuple[str, Mistake]]:
    """Every classic mistake of the curriculum: id -> (the solution module it patches, the mistake)."""
    return {m.id: (module, m) for module, mistakes in registry().values() for m in mistakes}


def module_of(mistake_id: str) -> str:
    """The solution module a mistake patches."""
    return by_id()[mistake_id][0]


def all_mistakes() -> dict[str, Mistake]:
    """Every classic mistake of the curriculum, by id."""
    return {mistake_id: mistake for mistake_id, (_, mistake) in by_id().items()}


@lru_cache(maxsize=None)
def users_of_module(module: str) -> tuple[str, ...]:
    """The solution modules that (transitively) use ``module``, in curriculum order (itself left out); a module's
    name is its exercise's id."""
    return tuple(user for user in curriculum.users_of([module]) if user != module)


@lru_cache(maxsize=None)
def reaching(module: str) -> tuple[Mistake, ...]:
    """The patch mistakes of the modules ``module`` uses (transitively): concepts that reach its functions, tried
    after its own mistakes (a mistake of the shared piece, such as an inverted mask in apply_mask or no scaling in
    scaled_dot_product_attention, made inside a function that uses it)."""
    return tuple(mistake for other, (owner, found) in registry().items() if owner != module
                 and module in users_of_module(owner) for mistake in found if mistake.patch)
