"""The trusted side's view of a student implementation: ``impl.softmax.softmax(x)``.

A :class:`Transport` carries requests (import, call, getattr, len, measure, touch_last_args, plain_cache,
generator) to the student's side and brings back decoded plain values; :class:`Implementation` turns attribute
access and calls into requests. Both transports, the sandboxed child and the in-process one for
trusted code, map the student's failures to :mod:`grader.sandbox.host.errors`.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Callable

import numpy as np

from ...calls import Call, Namespace
from ...compare import Restated
from ...interfaces import CallReport, Transport
from ...signatures import method_parameters, parameters
from ...text import printable
from ..inside import standin
from ..wire import LEAVES, Handle
from . import errors
from .failing_line import LINE_TEXT, line_names


def sibling_note(sibling: str, not_implemented: bool = False) -> str:
    """The line that blames another exercise's module (empty when there is none); ``grader.blame`` replaces
    it when that exercise passes its own checks (the caller is at fault then)."""
    if not sibling:
        return ""
    if not_implemented:
        return f"\n  finish exercise {sibling} first"
    return f"\n  the error came from your {sibling}.py (exercise {sibling}); fix that exercise first"


MISSING_MODULE = re.compile(r"No module named 'submission\.(\w+)'")  # a module of the submission, not there


def import_failure(info: dict, module: str, where: str) -> tuple[str, str]:
    """(the message, the other module at fault or "") for ``module`` that did not import; a missing file is named
    as such (never the package path the sandbox imports it under)."""
    missing = MISSING_MODULE.match(info["message"]) if info["type"] == "ModuleNotFoundError" else None
    if missing and missing.group(1) == module:
        return (f"there is no {module}.py in your folder: it belongs beside your other exercise modules, named "
                f"exactly {module}.py"), ""
    if missing:
        other = missing.group(1)
        return f"your {module}.py imports {other}, and there is no {other}.py in your folder{where}", other
    return (f"could not import your {module}.py: {info['type']}: {info['message']}{where}"
            f"{sibling_note(info['sibling'])}", info["sibling"])


def called(target: dict) -> str:
    """The name a request's ``target`` calls: a module-level function's, or a method's."""
    return str(target.get("method") or target.get("name") or "")


ERROR_TEXT = 2500  # characters kept of each text field of an error the child reports


def error_info(raw: Any, scrub: Callable[[str], str] = str) -> dict:
    """The error a child reported, with every field converted to what the trusted side expects, capped, shown
    escaped and with the grading machine's paths taken out (``scrub``)."""
    raw = raw if isinstance(raw, dict) else {}

    def text(key: str, default: str = "") -> str:
        value = raw.get(key, default)
        return printable(scrub((value if isinstance(value, str) else default)[:ERROR_TEXT]))

    sibling = text("sibling")
    return {"type": text("type", "Error")[:100] or "Error", "message": text("message"), "where": text("where"),
            "sibling": sibling if standin.NAME.match(sibling) else "", "line": text("line")[:LINE_TEXT],
            "names": line_names(raw.get("names")),
            **{flag: raw.get(flag) is True for flag in ("bad_value", "import", "not_implemented", "memory")}}


def student_error(info: dict, *, call: object, exercise: str, function: str = "") -> errors.StudentError:
    """The trusted-side exception for an error the student's side reported (``function``: the name called)."""
    where = f" ({info['where']})" if info.get("where") else ""
    sibling = info.get("sibling", "")
    note = sibling_note(sibling)
    if info.get("not_implemented"):
        detail = f": {info['message']}" if info.get("message") else ""
        if sibling:
            return errors.StudentNotImplemented(
                f"{call} stopped: it uses your {sibling}.py, which raised NotImplementedError{detail}"
                f"{sibling_note(sibling, not_implemented=True)}", call=call, exercise=exercise, sibling=sibling)
        return errors.StudentNotImplemented(f"{call} is not implemented yet (NotImplementedError{detail}){note}",
                                            call=call, exercise=exercise, sibling=sibling)
    if info.get("memory"):
        return errors.StudentCrashed(f"{call} ran out of memory (MemoryError){where}{note}",
                                     call=call, exercise=exercise, sibling=sibling)
    return errors.StudentRaised(f"{call} raised {info['type']}: {info['message']}{where}{note}",
                                call=call, exercise=exercise, sibling=sibling, error_type=info["type"],
                                error_message=info["message"], function=function, where=info.get("where", ""),
                                line=info.get("line", ""), names=tuple(info.get("names", ())))


INT64 = 1 << 63
JUDGEABLE_KINDS = "biufc"  # arrays a check can judge: bool, integers, floats, complex (never text)


def unjudgeable(value: Any, depth: int = 0) -> str:
    """Why a decoded answer of the student's code cannot be judged ("" when it can): an array of text, an integer
    outside int64. Checked before any check sees the value, so that judging it never fails on the trusted side
    (a failure there would blame the grader for the student's value). Bounded: the wire caps depth and items."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in JUDGEABLE_KINDS:
            return f"an array of dtype {value.dtype} (text), where numbers were expected"
    elif type(value) is int:
        if not -INT64 <= value < INT64:
            return "an integer outside the 64-bit range"
    elif isinstance(value, (tuple, list, dict)) and depth < 64:  # a dict: a parameter tree (part three)
        items = value.values() if isinstance(value, dict) else value
        return next(filter(None, (unjudgeable(item, depth + 1) for item in items)), "")
    return ""


def judged(value: Any, *, call: object, exercise: str) -> Any:
    """``value`` when a check can judge it; StudentBadValue naming why not otherwise."""
    reason = unjudgeable(value)
    if reason:
        raise errors.StudentBadValue(f"{call} returned a value that cannot be checked: {reason}", call=call,
                                     exercise=exercise)
    return value


class RemoteObject:
    """An object that lives on the student's side (a KVCache, a bound method...)."""

    __slots__ = ("_transport", "_handle", "_label")

    def __init__(self, transport: Transport, handle: Handle, label: str):
        object.__setattr__(self, "_transport", transport)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_label", label)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if name in self._handle.methods:  # fetched on the student's side when called: one request, not two
            return RemoteMethod(self._transport, self._handle, name, f"{self._label}.{name}")
        value = self._transport.request("getattr", {"handle": self._handle.id}, name=name,
                                        call=f"{self._label}.{name}")
        return wrap(self._transport, value, f"{self._label}.{name}")

    def __call__(self, *args, **kwargs):
        value = self._transport.request("call", {"handle": self._handle.id}, args, kwargs, call=f"{self._label}()")
        return wrap(self._transport, value, f"{self._label}()")

    def __len__(self) -> int:
        value = self._transport.request("len", {"handle": self._handle.id}, call=f"len({self._label})")
        if type(value) is not int or not 0 <= value <= sys.maxsize:  # what len() itself accepts
            raise errors.StudentBadValue(f"len({self._label}) returned {value!r}; expected a non-negative int",
                                         call=f"len({self._label})", exercise=self._transport.exercise)
        return value

    def __repr__(self) -> str:
        return f"<{printable(self._handle.type_name)} in the student's process>"


class RemoteMethod:
    """``obj.name`` of a :class:`RemoteObject` whose class defines ``name`` as a function: calling it sends
    one ``call`` request that fetches the attribute and calls it on the student's side."""

    __slots__ = ("_transport", "_target", "_label", "_names")

    def __init__(self, transport: Transport, handle: Handle, name: str, label: str):
        self._transport = transport
        self._target = {"handle": handle.id, "method": name}
        self._label = label
        self._names = method_parameters(handle.type_name, name)

    def __call__(self, *args, **kwargs):
        value = self._transport.request("call", self._target, unwrap(args), {k: unwrap(v) for k, v in kwargs.items()},
                                        call=Restated(self._label, args, kwargs, self._names))
        return wrap(self._transport, value, f"{self._label}()")

    def __repr__(self) -> str:
        return f"<method {self._label} in the student's process>"


def wrap(transport: Transport, value: Any, label: str) -> Any:
    """Handles in a decoded value become :class:`RemoteObject`s."""
    if type(value) is np.ndarray:  # most values, first
        return value
    if isinstance(value, Handle):
        name = printable(value.type_name)  # the student's class name, shown in messages
        return RemoteObject(transport, value, label if name in label else name)
    if isinstance(value, tuple):
        return tuple(wrap(transport, v, label) for v in value)
    if isinstance(value, list):
        return [wrap(transport, v, label) for v in value]
    if isinstance(value, dict):
        return {k: wrap(transport, v, label) for k, v in value.items()}
    return value


def unwrap(value: Any) -> Any:
    """Arguments: remote objects travel back as their handles. The items of a container that are common leaves
    (arrays, numbers) are taken by their exact type without a call each (a parameter tree is one loop per dict)."""
    if type(value) is np.ndarray:  # most arguments, first
        return value
    if isinstance(value, RemoteObject):
        return object.__getattribute__(value, "_handle")
    if isinstance(value, tuple):
        return tuple(v if type(v) in LEAVES else unwrap(v) for v in value)
    if isinstance(value, list):
        return [v if type(v) in LEAVES else unwrap(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in LEAVES else unwrap(v) for k, v in value.items()}
    return value


class Implementation(Namespace):
    """The ``impl`` fixture: ``impl.<module>.<name>(...)`` runs the student's code (one :class:`grader.calls.Call`,
    one request). What the trusted side measured about the last request is :attr:`last_call`."""

    def __init__(self, transport: Transport):
        self._transport = transport

    def call(self, call: Call) -> Any:
        label = Restated(call.function, call.args, call.kwargs, parameters(call.module, call.function))  # when shown
        args, kwargs = call.args, call.kwargs
        value = self._transport.request(  # (most calls pass arrays and numbers only: nothing to unwrap)
            "call", {"module": call.module, "name": call.function},
            args if LEAVES.issuperset(map(type, args)) else unwrap(args),
            {k: unwrap(v) for k, v in kwargs.items()} if kwargs else {}, call=label)
        return wrap(self._transport, value, call.function)

    def measure(self, call: Call) -> tuple[Any, int]:
        """Call once under tracemalloc on the student's side: (result, peak bytes)."""
        label = f"{call.function}()"
        value = self._transport.request("measure", {"module": call.module, "name": call.function}, unwrap(call.args),
                                        {k: unwrap(v) for k, v in call.kwargs.items()}, call=label)
        if not (isinstance(value, tuple) and len(value) == 2 and type(value[1]) is int):
            raise errors.StudentBadValue(f"{label}: the memory measurement came back malformed",
                                         call=label, exercise=self._transport.exercise)
        return wrap(self._transport, value[0], call.function), value[1]

    @property
    def last_call(self) -> CallReport:
        """What the trusted side measured about the last request (arguments changed, kernel memory)."""
        return self._transport.report

    @property
    def last_call_mutated(self) -> list[str]:
        """The arguments the last call changed in place, as labels: ``0`` (first positional), ``mask``
        (a keyword), ``1[0]`` (inside a tuple or list argument); empty when it changed none."""
        return list(self._transport.report.mutated)

    @property
    def siblings_called(self) -> set[str]:
        """The other exercises' modules whose functions the reference answered for the student's code so far."""
        return set(self._transport.siblings_called)

    @property
    def dead(self) -> bool:
        """The student's side is gone (a crash, a timeout): the runner makes a new implementation."""
        return self._transport.dead

    @property
    def import_failure(self) -> errors.StudentError | None:
        """Why the exercise's module could not be imported (None when it was, or for code in this process)."""
        return self._transport.broken

    def own_output(self) -> tuple[str, int]:
        """What the student's code printed since the last call of this method (bounded), and its size in bytes."""
        return self._transport.own_output()

    def close(self) -> None:
        """Release the student's side."""
        self._transport.close()

    def trust_own(self, names: list[str]) -> None:
        """Under ``attnkit grade``: these functions of the exercise's own module passed every check that judges them
        (``grader.proven``); from now on the student's side runs them as the student wrote them when the module's
        other functions call them, instead of asking the reference. Nothing for an implementation without
        stand-ins."""
        trust = getattr(self._transport, "trust_own", None)
        if trust is not None:
            trust(list(names))

    def touch_last_arguments(self) -> None:
        """On the student's side, add 1 in place to every float array the last call received (so a
        check can see whether the student's objects kept references to them)."""
        self._transport.request("touch_last_args", {}, call="changing the arrays passed to the last call")

    def plain_cache(self) -> RemoteObject:
        """A new, empty KV cache in the student's process written by the sandbox (``runtime.PlainCache``): a
        decode step's checks pass it instead of the student's own ``KVCache``."""
        return wrap(self._transport, self._transport.request("plain_cache", {}, call="PlainCache()"), "PlainCache")

    def generator(self, seed: int) -> RemoteObject:
        """``numpy.random.default_rng(seed)`` made in the student's process: the ``rng`` a sampling check passes
        (a Generator cannot cross the wire). The check reads how far the student's code advanced it by drawing
        the next number, ``rng.random()``, and comparing it with its own generator's."""
        return wrap(self._transport, self._transport.request("generator", {}, (int(seed),), call="default_rng()"),
                    "rng")

    def import_module(self, module: str) -> None:
        """Import a module of the submission now (raises StudentImportFailed on failure)."""
        self._transport.request("import", {"module": module}, call=f"import {module}")
