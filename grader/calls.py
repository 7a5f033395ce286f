"""One call of an exercise's function, one canonical encoding of its values, one namespace that makes calls.

:class:`Call` is ``x.softmax.softmax(a, axis=0)`` as a value: module, function, arguments. A method of an object
a call returned is the function ``Class.method`` with the object as the first argument. The student's
implementation (``grader.sandbox``), the reference and its memo (``grader.reference``), the recording of a check
run (``grader.diagnosis``) and the student release's recording and replay (``attnkit.release``) all take calls
as this value, made by one :class:`Namespace`.

The canonical encoding (:func:`encode`) is a JSON tree:

    {"t": "array", "dtype": "<f8", "shape": [3, 4], "h": "<sha256 of dtype, shape and bytes>"}
    {"t": "scalar", ...}                      a numpy scalar, as a 0-d array
    {"t": "none"} / {"t": "bool" | "str", "v": ...} / {"t": "int", "v": "12"} / {"t": "float", "v": "0x1.8p+0"}
    {"t": "tuple" | "list", "items": [...]}   told apart
    {"t": "dict", "items": [["key", {...}], ...]}   string keys, in the dict's own order
    {"t": "object", "v": "<token>"}           an object a reference call returned, named by its history
    {"t": "generator", "state": {...}}        a numpy Generator, by its state

Arrays follow the wire's rules (``grader.sandbox.wire.SAFE_DTYPE``: numbers, bools, fixed-width text; never an
object array), values nest at most :data:`MAX_DEPTH` deep. Objects and generators are stateful: they are
encoded only where the caller names them (``objects``), never in a :attr:`Call.digest`, so a memo never answers
a call that changes an object. A call handed seeded generators as arguments of their own has :meth:`Call.seeded`
instead: the digest with each generator's state in its place, under which the reference's memo keeps the answer
with the states the call leaves the generators in. The reference's memo, the mistaken references' and the release's
recording key calls by :attr:`Call.digest` (the release's recording keys a call that involves an object by
:meth:`Call.identity`, the tree with the object's history in it, hashed). Both are the same for the same call on any
machine: nothing in them depends on a numpy version's repr, an address or an ``id()``.
"""
from __future__ import annotations

import hashlib
import json
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

import numpy as np

from .sandbox import MAX_DEPTH, SAFE_DTYPE

Objects = Callable[[Any], "str | None"]   # an object's token (its history), None for a value that is no object


_SAFE: dict[np.dtype, bool] = {}   # dtypes already matched against the wire's rule (at most 256 kept)


def _safe(dtype: np.dtype) -> bool:
    found = _SAFE.get(dtype)
    if found is None:
        found = bool(SAFE_DTYPE.match(dtype.str))
        if len(_SAFE) < 256:
            _SAFE[dtype] = found
    return found


class Unencodable(TypeError):
    """A value the canonical encoding has no form for (an object where none may be, a function...)."""


def array_digest(array: np.ndarray) -> str:
    """sha256 of an array's dtype, shape and C-order bytes (40 hex digits)."""
    digest = hashlib.sha256(f"{array.dtype.str}|{tuple(array.shape)}|".encode())
    digest.update(np.ascontiguousarray(array).data)
    return digest.hexdigest()[:40]


def _array(value: np.ndarray, arrays: dict | None) -> dict:
    if not _safe(value.dtype):
        raise Unencodable(f"an array of dtype {value.dtype} has no canonical form")
    digest = array_digest(value)
    if arrays is not None and digest not in arrays:
        arrays[digest] = np.array(value, copy=True)
    return {"t": "array", "dtype": value.dtype.str, "shape": list(value.shape), "h": digest}


def encode(value: Any, arrays: dict | None = None, objects: Objects | None = None, depth: int = 0) -> dict:
    """The canonical tree of ``value``; arrays are named by digest (and copied into ``arrays`` when given).
    ``objects`` names the stateful objects that may appear (without it they are :class:`Unencodable`)."""
    if depth > MAX_DEPTH:
        raise Unencodable(f"a value nested more than {MAX_DEPTH} levels deep")
    kind = type(value)
    if kind is np.ndarray:
        return _array(value, arrays)
    if value is None:
        return {"t": "none"}
    if kind in (bool, str):
        return {"t": kind.__name__, "v": value}
    if kind is int:
        return {"t": "int", "v": str(value)}
    if kind is float:
        return {"t": "float", "v": value.hex()}
    if kind in (tuple, list):
        return {"t": kind.__name__, "items": [encode(item, arrays, objects, depth + 1) for item in value]}
    if kind is dict and all(type(key) is str for key in value):
        # in the dict's own order: a parameter tree comes back as the reference built it (a check walks it in
        # that order, so the first difference it reports is the same); keyword arguments are sorted by Call
        return {"t": "dict", "items": [[key, encode(item, arrays, objects, depth + 1)] for key, item in value.items()]}
    if isinstance(value, np.generic):
        return dict(_array(np.asarray(value), arrays), t="scalar")
    if objects is not None:
        token = objects(value)
        if token is not None:
            return {"t": "object", "v": token}
        if isinstance(value, np.random.Generator):  # a seeded rng a sampling check hands the reference: by its state
            return {"t": "generator", "state": encode(value.bit_generator.state, arrays, objects, depth + 1)}
    raise Unencodable(f"a {kind.__name__} has no canonical form here")


def _feed(update: Callable[[Any], None], value: Any, depth: int = 0) -> None:
    """Add the canonical form of ``value`` to a digest (``update``: its ``update`` method) as bytes: the rules of
    :func:`encode` (the same values accepted and refused, objects always refused), written without building the tree
    (a digest is taken of every reference call a class makes): an array's bytes in one piece, the items of a
    container without a call per number or key."""
    if depth > MAX_DEPTH:
        raise Unencodable(f"a value nested more than {MAX_DEPTH} levels deep")
    kind = type(value)
    if kind is np.ndarray:
        if not _safe(value.dtype):
            raise Unencodable(f"an array of dtype {value.dtype} has no canonical form")
        if value.nbytes < PIECE_BYTES:
            update(f"a{value.dtype.str}{value.shape}".encode())
            update(value.data if value.flags.c_contiguous else np.ascontiguousarray(value).data)
        else:   # a large array by the digest of its bytes, taken once where its memory cannot change
            update(f"A{value.dtype.str}{value.shape}".encode() + _piece(value))
    elif kind in _PLAIN:
        update(f"{kind.__name__}:{value!r};".encode())
    elif kind in (tuple, list) or (kind is dict and all(type(key) is str for key in value)):
        update(f"{kind.__name__}{len(value)}(".encode())
        inline = depth < MAX_DEPTH   # a small array item is fed here, as _feed would, without a call of its own
        if kind is dict:
            for key, item in value.items():
                if inline and type(item) is np.ndarray and _small(item):
                    update(f"str:{key!r};a{item.dtype.str}{item.shape}".encode())
                    update(item.data)
                else:
                    update(f"str:{key!r};".encode())
                    _feed(update, item, depth + 1)
        elif all(type(item) in _PLAIN for item in value):   # a list of token ids, of sizes: one piece
            update("".join(f"{type(item).__name__}:{item!r};" for item in value).encode())
        else:
            for item in value:
                if inline and type(item) is np.ndarray and _small(item):
                    update(f"a{item.dtype.str}{item.shape}".encode())
                    update(item.data)
                else:
                    _feed(update, item, depth + 1)
        update(b")")
    elif isinstance(value, np.generic) and _safe(value.dtype):   # by its bytes: a scalar's repr changed in numpy 2
        update(f"g{value.dtype.str}:".encode() + value.tobytes() + b";")
    else:
        raise Unencodable(f"a {kind.__name__} has no canonical form here")


_PLAIN = frozenset((type(None), bool, str, int, float))


def _small(array: np.ndarray) -> bool:
    """An array :func:`_feed` writes as its header and its bytes in place (C-contiguous, below
    :data:`PIECE_BYTES`, of a dtype the wire carries)."""
    return array.nbytes < PIECE_BYTES and array.flags.c_contiguous and _safe(array.dtype)


def _refused(value: Any) -> bool:
    """True for a value :func:`_feed` refuses at once (an object, a generator), without looking inside containers."""
    kind = type(value)
    return not (kind is np.ndarray or kind in _PLAIN or kind in (tuple, list, dict) or isinstance(value, np.generic))


PIECE_BYTES = 2**15     # arrays from this size are fed as the sha256 of their bytes
PIECES_KEPT = 1024      # digests kept by identity (all dropped when full: a class has a few dozen such inputs)
_pieces: dict[int, tuple[weakref.ref, tuple, bytes]] = {}   # id -> (array, its layout, digest of its bytes)


def _piece(array: np.ndarray) -> bytes:
    """sha256 of ``array``'s C-order bytes; kept by identity for an array whose memory nothing can write (a view
    of a ``bytes`` object: a check's large input, ``grader.checks.common.normal``), so a class's calls with the
    same large input hash it once."""
    layout = (array.shape, array.strides, array.dtype.str, array.__array_interface__["data"][0])
    base = array.base
    for _ in range(4):   # a view of a view of the bytes
        if type(base) is not np.ndarray:
            break
        base = base.base
    fixed = type(base) is bytes
    if fixed:
        found = _pieces.get(id(array))
        if found is not None and found[0]() is array and found[1] == layout:
            return found[2]
    piece = hashlib.sha256(array.data if array.flags.c_contiguous else np.ascontiguousarray(array).data).digest()
    if fixed:
        if len(_pieces) >= PIECES_KEPT:
            _pieces.clear()
        _pieces[id(array)] = (weakref.ref(array), layout, piece)
    return piece


def decode(tree: dict, fetch: Callable[[str], np.ndarray], new: Callable[[str], Any] | None = None) -> Any:
    """The value an :func:`encode` tree stands for (arrays from ``fetch(digest)``; ``{"t": "new", "class": ...}``,
    an object a recorded call returned, from ``new(class)``)."""
    kind = tree["t"]
    if kind == "new" and new is not None:
        return new(tree["class"])
    if kind == "array":
        return fetch(tree["h"])
    if kind == "scalar":
        return fetch(tree["h"])[()]
    if kind == "none":
        return None
    if kind in ("bool", "str"):
        return tree["v"]
    if kind == "int":
        return int(tree["v"])
    if kind == "float":
        return float.fromhex(tree["v"])
    if kind == "list":
        return [decode(item, fetch, new) for item in tree["items"]]
    if kind == "tuple":
        return tuple(decode(item, fetch, new) for item in tree["items"])
    if kind == "dict":
        return {key: decode(item, fetch, new) for key, item in tree["items"]}
    raise ValueError(f"unknown node {kind!r} in a recorded value")


@dataclass(eq=False)
class Call:
    """``module.function(*args, **kwargs)``; ``function`` is ``Class.method`` for a method of an object a call
    returned (the object is ``args[0]``). ``key``: the name the reference that answered gave the call (the
    release's recording and replay), for the mistaken outputs recorded with it."""

    module: str
    function: str
    args: tuple
    kwargs: dict
    key: str | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """The function's or method's own name (``append`` of ``KVCache.append``)."""
        return self.function.rpartition(".")[2]

    @property
    def method(self) -> bool:
        return "." in self.function

    def tree(self, space: str, arrays: dict | None = None, objects: Objects | None = None) -> list:
        """``[space, module, function, args, kwargs]`` encoded, keyword arguments sorted by name."""
        return [space, self.module, self.function, encode(tuple(self.args), arrays, objects),
                encode(dict(sorted(self.kwargs.items())), arrays, objects)]

    def identity(self, space: str, arrays: dict | None = None, objects: Objects | None = None) -> tuple[str, list]:
        """(key, tree): the key is the sha256 of the tree's JSON (32 hex digits), the release recording's key of a call
        that involves an object (``attnkit.release.replay.recorded_key``)."""
        tree = self.tree(space, arrays, objects)
        return hashlib.sha256(_json(tree)).hexdigest()[:32], tree

    @cached_property
    def digest(self) -> bytes | None:
        """The digest of the call's canonical form (module, function, arguments, keyword arguments sorted by name),
        objects refused; None for a call that holds anything else (such a call is never memoised)."""
        args, kwargs = self.args, self.kwargs
        for value in (*args, *kwargs.values()):   # before any bytes are hashed
            if _refused(value):
                return None
        digest = hashlib.sha256(f"{self.module}.{self.function}".encode())   # sha256: hardware-assisted on x86-64
        try:
            _feed(digest.update, args)
            if all(type(value) in _PLAIN for value in kwargs.values()):   # the bytes _feed writes, in one piece
                pairs = "".join(f"tuple2(str:{key!r};{type(value).__name__}:{value!r};)"
                                for key, value in sorted(kwargs.items()))
                digest.update(f"list{len(kwargs)}({pairs})".encode())
            else:
                _feed(digest.update, sorted(kwargs.items()))
        except Unencodable:
            return None
        return digest.digest()

    def seeded(self) -> tuple[bytes, list[np.random.Generator]] | None:
        """For a call whose arguments are canonical values and numpy ``Generator`` objects (arguments of their own,
        not inside a container: a sampling check hands the reference a seeded rng): (the digest of the call with each
        generator's place taken by its bit generator's state, those generators in order). The result of such a call
        depends on its arguments and those states only, so it may be kept with each generator's state after the call
        (``grader.reference.ResultCache``). None for any other call (one with no generator, or another object)."""
        values = (*self.args, *self.kwargs.values())
        if not any(type(value) is np.random.Generator for value in values):
            return None
        drawn: list[np.random.Generator] = []

        def state(value: Any) -> Any:
            if type(value) is not np.random.Generator:
                return value
            drawn.append(value)
            return ("numpy.random.Generator", value.bit_generator.state)

        # a function name no exercise can have: never the digest of a call without generators
        stand_in = Call(self.module, f"{self.function}#generators", tuple(state(value) for value in self.args),
                        {name: state(value) for name, value in self.kwargs.items()})
        digest = stand_in.digest
        return None if digest is None else (digest, drawn)


def _json(tree: list) -> bytes:
    return json.dumps(tree, sort_keys=True, separators=(",", ":")).encode()


class Handle:
    """An object a reference call returned, where calls are recorded or replayed (``attnkit.release``): named by its
    class and its history, ``token`` (the key of the last call that involved it, and its place in that call)."""

    def __init__(self, module: str, class_name: str, token: str):
        self._module, self._class, self._token = module, class_name, token

    @property
    def class_name(self) -> str:
        return self._class


def class_name(value: Any) -> str:
    """The class an object a reference call returned stands for (a :class:`Handle`'s, or its own)."""
    return value.class_name if isinstance(value, Handle) else type(value).__name__


class Namespace:
    """``x.softmax.softmax(a, axis=0)`` as ``x.call(Call("softmax", "softmax", (a,), {"axis": 0}))``: the one
    proxy for exercise modules. A subclass answers :meth:`call`; :meth:`resolve` refuses a name at attribute
    access (AttributeError) rather than at the call. An attribute the subclass declares is not a module."""

    def call(self, call: Call) -> Any:
        raise NotImplementedError(f"{type(self).__name__} answers no calls")

    def measure(self, call: Call) -> tuple[Any, int]:
        """(result, peak bytes) of ``call`` measured where it runs; only the student's side measures."""
        raise TypeError(f"{call.module}.{call.function} cannot be measured here")

    def resolve(self, module: str, function: str) -> None:
        """AttributeError when ``module.function`` is not there (every name is, unless a subclass says)."""

    def __getattr__(self, module: str) -> "Module":
        if module.startswith("_"):
            raise AttributeError(module)
        found = self.__dict__[module] = Module(self, module)  # found directly from now on
        return found


class Module:
    """``x.softmax`` of a :class:`Namespace`."""

    def __init__(self, namespace: Namespace, module: str):
        self._namespace, self._module = namespace, module

    def __getattr__(self, function: str) -> "Function":
        if function.startswith("_"):
            raise AttributeError(function)
        self._namespace.resolve(self._module, function)
        found = self.__dict__[function] = Function(self._namespace, self._module, function)
        return found


class Function:
    """``x.softmax.softmax``: calling it makes one :class:`Call`."""

    __slots__ = ("_namespace", "_module", "__name__")

    def __init__(self, namespace: Namespace, module: str, name: str):
        self._namespace, self._module, self.__name__ = namespace, module, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._namespace.call(Call(self._module, self.__name__, args, kwargs))

    def measure(self, *args: Any, **kwargs: Any) -> tuple[Any, int]:
        """Call once, measuring the memory it takes where it runs: (result, peak bytes)."""
        return self._namespace.measure(Call(self._module, self.__name__, args, kwargs))

    def __repr__(self) -> str:
        return f"<function {self._module}.{self.__name__}>"
