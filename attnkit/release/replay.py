"""Recorded reference values, replayed: ``ref`` and the mistake diagnosis of the student release.

The student release ships neither the reference solutions nor the mistaken references built
from them (both are correct implementations in disguise). ``attnkit release`` runs every public
check against the reference once, records what every reference call returned and what every
classic mistake registered for its function returns for the same call, and ships the values
beside the checks, in the files :mod:`recording` describes (``grader/recorded/``).

A call's key (:func:`recorded_key`) is a sha256 of the space and :attr:`grader.calls.Call.digest`, the digest the
reference's memo keys calls by (an array is its dtype, shape and bytes; a float its exact repr; lists and tuples are
told apart; keyword arguments are sorted by name, a dict value keeps its order), so a lookup costs one digest of the
arguments and a dictionary access. The checks' inputs come from ``rng`` (seeded by the check's name) and the document
values, so the same check makes the same calls, with the same keys, on a student's machine.

An object a reference call returns (a ``KVCache``) is a :class:`Handle` named by its history: the key of the last
call that involved it, so the same calls in the same order find the same recorded answers. A digest refuses objects
(and a seeded generator): such a call is keyed by :meth:`grader.calls.Call.identity` instead, the sha256 of the JSON
tree of ``[space, module, function, args, kwargs]`` with each object's history and each generator's state in it.

A call whose exact key is missing (a last-bit difference of a matrix product on another CPU) falls back to a recorded
call of the same function with the same shapes whose arrays are equal within a tight tolerance: only then is the
call's tree built. A mistake's output for a call is keyed by the mistake's id and the call's key.

This file imports numpy, the standard library, ``grader.calls`` and ``grader.interfaces`` only, and ``recording.py``
numpy, the standard library, ``grader.atomic``, ``grader.array_blob`` and ``grader.curriculum``: the release copies
them to ``grader/replay.py`` and ``grader/recording.py``.
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


def recorded_key(space: str, call: Call) -> str:
    """The key ``call`` is recorded under in ``space``: from its digest, or for a call that involves an object or a
    generator (it has no digest) from its identity tree."""
    digest = call.digest
    if digest is None:
        return call.identity(space, None, token)[0]
    return hashlib.sha256(space.encode() + b"|" + digest).hexdigest()[:32]


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


def shapes(tree: list) -> str:
    """What calls that may near-match share: the call's tree without its array digests, as text (recorded with each
    call kept for near matches, so a miss groups the recorded calls without walking their trees)."""
    return json.dumps(shapes_only(tree), sort_keys=True)


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
        module = call.module
        key = recorded_key(space, call)
        result = self.store.calls(module).get(key)
        if result is None:
            key, result = self._missed(space, call)
        self._module_of[key] = module
        return key, result

    def _missed(self, space: str, call: Call) -> tuple[str, dict]:
        """A call not recorded exactly: its tree is built only now, for a near match or the message."""
        actual: dict = {}
        tree = call.tree(space, actual, token)
        key = None if self.strict else self._near(call.module, tree, actual)
        if key is None:
            shown = describe_call(tree)
            self.misses.append(f"{space}: {shown}")
            raise ReplayMiss(MISS.format(call=shown, numpy=self.store.meta.get("numpy", "?")))
        return key, self.store.calls(call.module)[key]

    def _near(self, module: str, tree: list, actual: dict) -> str | None:
        """The key of a recorded call of the same function and shapes whose arrays are close to ``actual``'s."""
        near = self.store.near(module)
        if module not in self._groups:
            groups = self._groups[module] = {}
            for key, kept in near.items():
                groups.setdefault(kept["shapes"], []).append(key)
        for key in self._groups[module].get(shapes(tree), ()):
            if self._close(near[key]["args"], tree, actual):
                return key
        return None

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
        if call.digest is None:   # a call with a digest holds no object
            moved_on(handles(call.args, call.kwargs), key)
        return self.value(result["value"], call.module, key)

    def reference(self) -> "ReplayedReference":
        return ReplayedReference(self)

    def mistaken(self, mistake_id: str, key: str | None) -> Any:
        """What a classic mistake returned for the reference call ``key`` when it was recorded."""
        module = None if key is None else self._module_of.get(key)
        recorded = {} if module is None or key is None else self.store.mistakes(module)
        result = None if key is None else recorded.get(mistake_key(mistake_id, key))
        if result is None:
            raise MistakeUndefined(mistake_id)
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
