"""Under ``attnkit grade``: the trusted side's answer to a child's call of a prerequisite's function (or, while
one function of the exercise's own module runs, of another function of that module).

A stand-in in the child (``standin.py``) sends a ``callback`` frame naming the module and function, with
its arguments encoded like any value; :func:`answer_callback` checks it is one of the functions named at
spawn, decodes the arguments with the wire's bounded decoding (no handle accepted; the sandbox's lent KV
caches cross by value: ``standin.mark_caches``), refuses a call whose estimated work passes
``standin.WORK_LIMIT``, and computes the reference's result here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from .. import wire
from ..inside import standin
from ..inside.runtime import LENT_CLASSES
from .proxy import ERROR_TEXT


class CallbackRefused(Exception):
    """A callback frame the trusted side will not answer (forged, malformed, or one too many)."""


@dataclass(frozen=True)
class Siblings:
    """The prerequisites' functions a child may call back for: ``{module: (names)}``, and the
    trusted function that answers ``answer(module, name, args, kwargs)`` (the reference)."""

    functions: dict
    answer: Callable[[str, str, tuple, dict], Any]
    own: tuple = ()   # the exercise's own module's functions, answered while another function of it runs


def _has_handle(value: Any) -> bool:
    if isinstance(value, wire.Handle):
        return True
    items: Iterable[Any]
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, (tuple, list)):
        items = value
    else:
        return False
    return any(_has_handle(item) for item in items if type(item) not in wire.LEAVES)


def answer_callback(siblings: Siblings | None, frame: dict, values: list, called: set,
                    own_module: str = "") -> tuple[dict, list]:
    """The reply frame (header, arrays) to one callback; its module is added to ``called`` (unless it is
    ``own_module``, the exercise's own). CallbackRefused for a frame that is not a call the reference answers."""
    target = frame.get("callback")
    module, name = (target.get("module"), target.get("name")) if isinstance(target, dict) else (None, None)
    own = siblings is not None and module == own_module and name in siblings.own
    if siblings is None or not isinstance(module, str) or not isinstance(name, str) or name in LENT_CLASSES or not (
            own or name in siblings.functions.get(module, ())):  # a lent class is never called back for
        raise CallbackRefused(f"it asked the grader for {str(module)[:64]}.{str(name)[:64]}, "
                              "which is not a function of this exercise or of one it builds on")
    caches: list = []   # the lent KV caches among the arguments, crossed by value (standin.mark_caches)
    try:
        args = wire.decode(frame.get("args"), values)
        kwargs = wire.decode(frame.get("kwargs"), values)
        if not isinstance(args, tuple) or not isinstance(kwargs, list) or _has_handle((args, kwargs)) or not all(
                isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) for item in kwargs):
            raise wire.WireError("malformed arguments")
        args, kwargs = standin.unmark_caches((args, kwargs), caches)
    except wire.WireError as failure:
        raise CallbackRefused(f"a malformed call of {module}.{name} ({failure})") from None
    if standin.too_large(args, dict(kwargs)):  # an honest stand-in runs such a call itself
        raise CallbackRefused(f"a call of {module}.{name} larger than the reference answers")
    if not own:  # the exercise's own functions are not another exercise graded with the reference
        called.add(module)
    out: list = []
    try:
        with np.errstate(all="ignore"):
            result = siblings.answer(module, name, args, dict(kwargs))
        return {"ok": True, "value": wire.encode(result, out), "caches": wire.encode(standin.grown(caches), out)}, out
    except Exception as error:  # the student's arguments made the reference raise: raised in their code
        return {"ok": False, "error": {"type": type(error).__name__, "message": str(error)[:ERROR_TEXT]}}, []
