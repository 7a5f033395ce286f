"""Recorded reference values, replayed: ``ref`` and the mistake diagnosis of the student release.

The student release ships neither the reference solutions nor the mistaken references built
from them (both are correct implementations in disguise). ``attnkit release`` runs every public
check against the reference once, records what every reference call returned and what every
classic mistake registered for its function returns for the same call, and ships the values
beside the checks, in the files :mod:`recording` describes (``grader/recorded/``).

A call's key is :meth:`grader.calls.Call.identity`: the sha256 of the JSON of ``[space, module, function, args,
kwargs]`` in the canonical encoding of ``grader.calls`` (an array is its dtype, shape and a sha256 of dtype, shape
and bytes; a float is ``float.hex()``; lists and tuples are told apart; keyword arguments are sorted by name, a
dict value keeps its order). The checks' inputs come from ``rng`` (seeded by the check's name) and
the document values, so the same check makes the same calls on a student's machine. A call whose exact key is missing
(a last-bit difference of a matrix product on another CPU) falls back to a recorded call of
the same function with the same shapes whose arrays are equal within a tight tolerance.

An object a reference call returns (a ``KVCache``) is a :class:`Handle` named by its history:
the key of the last call that involved it, so the same calls in the same order find the same
recorded answers. A mistake's output for a call is keyed by the mistake's id and the call's key.

This file imports numpy, the standard library, ``grader.calls`` and ``grader.interfaces`` only, and ``recording.py``
numpy and the standard library: the release copies them to ``grader/replay.py`` and ``grader/recording.py``.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from grader.calls import Call, Handle, Namespace, decode
from grader.interfaces import MistakeUndefined, ReferenceKind

from .recording import Store

RECORDED = "recorded"                  # folder beside this file in the release
NEAR_LIMIT = 1 << 16                   # a call's argument arrays are kept for near matches up to this many elements
NEAR_TOLERANCE = {"f8": (1e-9, 1e-12), "f4": (1e-5, 1e-6), "f2": (1e-2, 1e-3)}
MISS = ("the student release has no recorded reference value for {call} (recorded with numpy {numpy}); "
        "rebuild the release with `attnkit release`, or report it to your instructor")


class ReplayMiss(LookupError):
    """A call that was never recorded."""


def token(value: Any) -> str | None:
    """The history that names an object a reference call returned (None for any other value)."""
    return value._token if isinstance(value, Handle) else None


def handles(args: tuple, kwargs: dict) -> list[Handle]:
    """The handles among a call's arguments, in tuples, lists and dicts too (one KV cache per layer), in order."""
    found: list[Handle] = []
    for value in (*args, *kwargs.values()):
        if isinstance(value, Handle):
            found.append(value)
        elif isinstance(value, (tuple, list)):
            found.extend(handles(tuple(value), {}))
        elif isinstance(value, dict):
            found.extend(handles((), value))
    return found


def moved_on(involved: list[Handle], key: str) -> None:
    """After a call with key ``key``: each object it involved is now named by that call."""
    for position, handle in enumerate(involved):
        handle._token = f"{key}/{position}"


def mistake_key(mistake_id: str, key: str) -> str:
    """The recording key of a mistake's output for the reference call ``key``."""
    return hashlib.sha256(f"mistake|{mistake_id}|{key}".encode()).hexdigest()[:32]


def shapes_only(node: Any) -> Any:
    """A call tree without the array digests: calls that differ only in array values share it."""
    if isinstance(node, dict):
        return {k: shapes_only(v) for k, v in node.items() if k != "h"}
    if isinstance(node, list):
        return [shapes_only(v) for v in node]
    return node


def describe_call(tree: list) -> str:
    """``softmax.softmax(array (3, 4) float32, axis=0)`` for a message."""
    def show(node):
        kind = node["t"]
        if kind in ("array", "scalar"):
            return f"array {tuple(node['shape'])} {np.dtype(node['dtype']).name}"
        if kind in ("list", "tuple"):
            return f"{kind} of {len(node['items'])}"
        if kind == "object":
            return "object"
        return "None" if kind == "none" else str(float.fromhex(node["v"]) if kind == "float" else node["v"])

    _, module, function, args, kwargs = tree
    shown = [show(a) for a in args["items"]] + [f"{k}={show(v)}" for k, v in kwargs["items"]]
    return f"{module}.{function}({', '.join(shown)})"


class Replay:
    """Answers recorded calls; ``strict`` turns off near matches (the release build uses it)."""

    def __init__(self, store: Store, strict: bool = False):
        self.store = store
        self.strict = strict
        self.misses: list[str] = []
        self._groups: dict[str, dict[str, list[str]]] = {}   # module -> call shapes -> keys of near calls
        self._module_of: dict[str, str] = {}                   # key of a call answered -> its module

    # -- lookup ---------------------------------------------------------------------
    def lookup(self, space: str, call: Call) -> tuple[str, dict]:
        """(key of the recorded call that answers, its result)."""
        actual: dict = {}
        module = call.module
        found, tree = call.identity(space, actual, token)
        key: str | None = found
        entry = self.store.calls(module).get(found)
        if entry is None and not self.strict:
            key, entry = self._near(module, tree, actual)
        if entry is None or key is None:
            shown = describe_call(tree)
            self.misses.append(f"{space}: {shown}")
            raise ReplayMiss(MISS.format(call=shown, numpy=self.store.meta.get("numpy", "?")))
        self._module_of[key] = module
        return key, entry["result"]

    def _near(self, module: str, tree: list, actual: dict) -> tuple[str | None, dict | None]:
        if module not in self._groups:
            groups = self._groups[module] = {}
            for key, entry in self.store.calls(module).items():
                if entry.get("near"):
                    groups.setdefault(json.dumps(shapes_only(entry["args"]), sort_keys=True), []).append(key)
        for key in self._groups[module].get(json.dumps(shapes_only(tree), sort_keys=True), ()):
            entry = self.store.calls(module)[key]
            if self._close(entry["args"], tree, actual):
                return key, entry
        return None, None

    def _close(self, recorded: Any, wanted: Any, actual: dict) -> bool:
        if isinstance(recorded, dict) and recorded.get("t") in ("array", "scalar"):
            if recorded["h"] == wanted["h"]:
                return True
            tolerance = NEAR_TOLERANCE.get(np.dtype(recorded["dtype"]).str[1:])
            if tolerance is None:
                return False
            rtol, atol = tolerance
            return bool(np.allclose(self.store.fetch(recorded["h"]), actual[wanted["h"]], rtol=rtol, atol=atol,
                                    equal_nan=True))
        if isinstance(recorded, dict):
            return recorded.keys() == wanted.keys() and all(self._close(recorded[k], wanted[k], actual)
                                                            for k in recorded)
        if isinstance(recorded, list):
            return len(recorded) == len(wanted) and all(self._close(r, w, actual) for r, w in zip(recorded, wanted))
        return recorded == wanted

    def value(self, tree: dict, module: str = "", key: str = "") -> Any:
        return decode(tree, self.store.fetch, lambda cls: ReplayedObject(self, module, cls, f"{key}/new"))

    # -- what the checks see ------------------------------------------------------------
    def call_reference(self, call: Call) -> Any:
        """The recorded result of the reference call ``call`` (named ``call.key``, the recorded call's key)."""
        key, result = self.lookup("ref", call)
        call.key = key
        moved_on(handles(call.args, call.kwargs), key)
        return self.value(result["value"], call.module, key)

    def reference(self) -> "ReplayedReference":
        return ReplayedReference(self)

    def mistaken(self, mistake_id: str, key: str | None) -> Any:
        """What a classic mistake returned for the reference call ``key`` when it was recorded."""
        module = None if key is None else self._module_of.get(key)
        entry = None if module is None or key is None else self.store.mistakes(module).get(mistake_key(mistake_id, key))
        if entry is None:
            raise MistakeUndefined(mistake_id)
        result = entry["result"]
        if result["kind"] == "raises":
            raise MistakeUndefined(mistake_id, result["error"], result.get("message", ""))
        return self.value(result["value"])


class ReplayedObject(Handle):
    """An object a replayed reference call returned: its method calls are answered from the recording."""

    def __init__(self, replay: Replay, module: str, cls: str, token: str):
        super().__init__(module, cls, token)
        self._replay = replay

    def __getattr__(self, name: str) -> Callable:
        if name.startswith("_"):
            raise AttributeError(name)
        method = f"{self._class}.{name}"
        return lambda *args, **kwargs: self._replay.call_reference(Call(self._module, method, (self, *args), kwargs))


class ReplayedReference(Namespace):
    """What ``ref`` answers from in the release: ``ref.softmax.softmax(x)`` from the recording, and a classic
    mistake's output for a call it answered from what was recorded with that call."""

    kind = ReferenceKind.REPLAYING

    def __init__(self, replay: Replay):
        self._replay = replay

    def call(self, call: Call) -> Any:
        return self._replay.call_reference(call)

    def mistaken(self, call: Call, mistake: Any, compute: Callable[[], Any]) -> Any:
        return self._replay.mistaken(mistake.id, call.key)


@lru_cache(maxsize=1)
def installed() -> Replay:
    """The replay of the recording shipped beside this file (in the student release)."""
    return Replay(Store.load(Path(__file__).resolve().parent / RECORDED))
