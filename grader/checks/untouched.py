"""The "inputs untouched" checks: no exercise function may change the arrays it is given.

The trusted side compares every array argument (nested in tuples and lists too) before and after
each call, in the memory it shares with the child (``grader/sandbox/host/shared.py``), and lists the
ones that changed (``impl.last_call_mutated``).
Not checks themselves (no ``test_`` names here): each exercise's check module calls these.
"""
from __future__ import annotations

from typing import Any

from ..compare import CheckFailed, arg, call_text, expect_parts
from ..mistakes.model import Mistake


def argument_name(label: str, names: tuple[str, ...]) -> str:
    """``0`` -> the first parameter's name, ``1[0]`` -> ``K[0]``, a keyword stays itself."""
    head, bracket, rest = label.partition("[")
    if head.isascii() and head.isdecimal() and int(head) < len(names):
        head = names[int(head)]
    return head + bracket + rest


def expect_untouched(impl: Any, module: str, function: str, args: tuple, kwargs: dict | None = None, *,
                     names: tuple[str, ...], expected: Any, mistake: Mistake,
                     parts: tuple[str, ...] = ("output", "weights")) -> None:
    """Call ``impl.<module>.<function>(*args, **kwargs)``: it must change none of its arguments, and
    (so that no point goes to wrong code) return ``expected``, the reference's result (parts named
    by ``parts`` when it is a tuple). ``names``: the function's parameter names, in order."""
    kwargs = kwargs or {}
    call = call_text(function, *(arg(name, value) for name, value in [*zip(names, args), *kwargs.items()]))
    got = getattr(getattr(impl, module), function)(*args, **kwargs)
    changed = [argument_name(label, names) for label in impl.last_call_mutated]
    if changed:
        which = ", ".join(changed)
        raise CheckFailed(f"{call} changed {'its argument' if len(changed) == 1 else 'its arguments'} {which} "
                          "in place; the caller's arrays must come back exactly as they were passed",
                          diagnosis=mistake)
    expect_parts(got, expected, call=call, names=parts)
