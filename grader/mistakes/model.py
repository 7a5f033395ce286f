"""A classic mistake: data, plus at most one small function.

A :class:`Mistake` names a wrong answer the checks can recognise. Most are a ``patch`` of the
exercise's reference module (``solutions/<module>.py``): the patched source, loaded as a fresh
module, is a *mistaken reference* that returns what an implementation making that mistake
returns, for any call (``grader.diagnosis``). The same patch applied to a copy of ``solutions/``
is the mistake's end-to-end mutant submission (``tests/grader/test_mistakes_end_to_end.py``).

The few mistakes whose wrong value depends on a choice the student made (the large finite
number written instead of ``-inf``) give ``compute(call, got, expected)`` instead, which returns
what the student's value would be if that mistake were the only one (or None), plus a ``mutant``
patch for their end-to-end test. A mistake with neither is named by a check directly (for
example from a memory measurement) and only has a ``mutant``.

When the student's code raises, a patch mistake is named when its mistaken reference raises the same
exception on the same call; ``raises`` adds exceptions a mistake explains although its mistaken
reference does not raise them (an ``AxisError`` from an axis written into the code, where the
patch ignores the ``axis`` argument instead): (exception type, regular expression on the first line
of its message, what went wrong in that case: the ``looks_like`` shown for it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .anchors import Edit, PatchError, Replacements, apply

__all__ = ["Alternatives", "Edit", "Mistake", "PatchError", "Replacements", "apply", "modifies_input"]


@dataclass(frozen=True)
class Mistake:
    """One classic mistake of one exercise (defined in ``grader/mistakes/<exercise>.py``).

    ``looks_like`` completes "looks like ..." and says what went wrong (the symptom), never the
    fix; ``hint`` nudges at the idea, never the line of code.
    """

    id: str
    functions: tuple[str, ...]
    looks_like: str
    hint: str
    patch: Replacements = ()
    compute: Callable[[Any, Any, Any], Any] | None = None
    mutant: Replacements = ()
    raises: tuple[tuple[str, str, str], ...] = ()

    @property
    def mutant_patch(self) -> Replacements:
        """The replacements that turn ``solutions/<module>.py`` into this mistake's mutant."""
        return self.mutant or self.patch


@dataclass(frozen=True)
class Alternatives:
    """Known other ways public code computes a piece of an exercise's reference (``grader.alternatives``): what the
    piece is, and each alternative's (name, patch of the reference's line, what the student's value looks like)."""

    what: str
    variants: tuple[tuple[str, Replacements, str], ...]


def modifies_input(exercise: str, functions: tuple[str, ...], argument: str, anchor: str, line: str) -> Mistake:
    """``<exercise>_modifies_input``: one of ``functions`` wrote into an array it was given (named by the
    exercise's inputs-untouched check from the sandbox's report); its mutant zeroes ``argument`` in place
    just before ``line`` of the reference, the line marked ``# anchor: <anchor>``."""
    return Mistake(
        id=f"{exercise}_modifies_input",
        functions=functions,
        looks_like="an argument array of the caller was overwritten: the function wrote into one of its inputs",
        hint="The caller may still need its arrays after the call. Which of your assignments write into an "
             "array you were given (`+=`, `out=`, slice assignment)?",
        mutant=(Edit(anchor, line, f"    {argument}[...] = 0\n{line}"),),
    )
