"""Under ``attnkit grade``: the trusted side's answer to a child's call of a prerequisite's function.

A stand-in in the child (``standin.py``) sends a ``callback`` frame naming the module and function, with
its arguments encoded like any value; :func:`answer_callback` checks it is one of the functions named at
spawn, decodes the arguments with the wire's bounded decoding (no handle accepted), refuses a call
whose estimated work passes ``standin.WORK_LIMIT``, and computes the reference's result here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import standin, wire
from .proxy import ERROR_TEXT


class CallbackRefused(Exception):
    """A callback frame the trusted side will not answer (forged, malformed, or one too many)."""


@dataclass(frozen=True)
class Siblings:
    """The prerequisites' functions a child may call back for: ``{module: (names)}``, and the
    trusted function that answers ``answer(module, name, args, kwargs)`` (the reference)."""

    functions: dict
    answer: Callable[[str, str, tuple, dict], Any]


def _has_handle(value: Any) -> bool:
    if isinstance(value, wire.Handle):
        return True
    return isinstance(value, (tuple, list)) and any(_has_handle(item) for item in value)


def answer_callback(siblings: Siblings | None, frame: dict, values: list, called: set) -> tuple[dict, list]:
    """The reply frame (header, arrays) to one callback; its module is added to ``called``.
    CallbackRefused for a frame that is not a call the reference answers."""
    target = frame.get("callback")
    module, name = (target.get("module"), target.get("name")) if isinstance(target, dict) else (None, None)
    if siblings is None or not isinstance(module, str) or name not in siblings.functions.get(module, ()):
        raise CallbackRefused(f"it asked the grader for {str(module)[:64]}.{str(name)[:64]}, "
                              "which is not a function of an exercise this one builds on")
    try:
        args = wire.decode(frame.get("args"), values)
        kwargs = wire.decode(frame.get("kwargs"), values)
        if not isinstance(args, tuple) or not isinstance(kwargs, list) or _has_handle((args, kwargs)) or not all(
                isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) for item in kwargs):
            raise wire.WireError("malformed arguments")
    except wire.WireError as failure:
        raise CallbackRefused(f"a malformed call of {module}.{name} ({failure})") from None
    if standin.too_large(args, dict(kwargs)):  # an honest stand-in runs such a call itself
        raise CallbackRefused(f"a call of {module}.{name} larger than the reference answers")
    called.add(module)
    out: list = []
    try:
        with np.errstate(all="ignore"):
            result = siblings.answer(module, name, args, dict(kwargs))
        return {"ok": True, "value": wire.encode(result, out)}, out
    except Exception as error:  # the student's arguments made the reference raise: raised in their code
        return {"ok": False, "error": {"type": type(error).__name__, "message": str(error)[:ERROR_TEXT]}}, []
