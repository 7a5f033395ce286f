"""The reference solutions as the checks see them: ``ref.softmax.softmax(...)`` (trusted, in-process).

Every check input comes from an ``rng`` seeded by the check's name, so a class of 300 students
asks the reference the same questions 300 times. :func:`reference` therefore memoises the
reference's plain functions: a call whose arguments have a canonical form (arrays, numbers, strings, ``None``,
tuples, lists and string-keyed dicts of those: ``grader.calls``) is keyed by its digest, and its result
(an array, a number, or a tree of them: a model's parameters, a loss) is kept with its arrays read-only, so a
check cannot alter what the next student is compared with (each caller gets the tree's lists and dicts anew).
Classes, and calls with any other argument, go straight through.
The cache holds at most :data:`CACHE_BYTES` of results (least recently used dropped first).
"""
from __future__ import annotations

import importlib
import inspect
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from . import curriculum
from .calls import Call, Namespace
from .interfaces import ReferenceKind
from .kept_results import Kept
from .memo import MISSING, Memo
from .sandbox import MAX_DEPTH

if TYPE_CHECKING:
    from .mistakes.model import Mistake

CACHE_BYTES = 256 * 2**20


_KEPT_AS_IS = (np.generic, int, float, complex, bool, str, bytes, type(None))   # values nothing can change
_NOT_KEPT = object()


def _arrays(value: Any, depth: int = 0) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if depth < MAX_DEPTH and isinstance(value, (tuple, list)):
        return [array for item in value for array in _arrays(item, depth + 1)]
    if depth < MAX_DEPTH and isinstance(value, dict):
        return [array for item in value.values() for array in _arrays(item, depth + 1)]
    return []


class _Inputs:
    """A call's input arrays, and the objects whose memory they are views of (bases, at most :data:`MAX_DEPTH`
    deep): what a result may share memory with."""

    def __init__(self, arrays: list[np.ndarray]):
        self.arrays = arrays
        self.holders: set[int] = set()   # ids of the inputs and of their bases, alive while the inputs are
        for array in arrays:
            holder: Any = array
            for _ in range(MAX_DEPTH):
                if holder is None:
                    break
                self.holders.add(id(holder))
                holder = getattr(holder, "base", None)

    def may_hold(self, array: np.ndarray) -> bool:
        """Whether ``array`` may share memory with an input. An array that owns its memory shares it only with
        inputs that are it or views of it; checked by identity first, the memory bounds only for a view."""
        if array.base is None and id(array) not in self.holders:
            return False
        return any(np.may_share_memory(array, source) for source in self.arrays)


def _own(array: np.ndarray, inputs: _Inputs) -> np.ndarray:
    """``array``, copied when it may be a view of an input (the check may change its inputs later)."""
    owned = array.copy() if inputs.may_hold(array) else array
    owned.flags.writeable = False
    return owned


def _frozen(result: Any, inputs: _Inputs, depth: int = 0) -> Any:
    """``result`` with every array read-only and none a view of an input: an array, a number, or a tree of them
    (tuples, lists, string-keyed dicts: a model's parameters, a loss); :data:`_NOT_KEPT` for anything else (an
    object such as a ``KVCache``, which is never memoised)."""
    kind = type(result)
    if kind is np.ndarray:
        return _own(result, inputs)
    if isinstance(result, _KEPT_AS_IS):
        return result
    if depth >= MAX_DEPTH:
        return _NOT_KEPT
    if kind in (tuple, list):
        items = [_frozen(item, inputs, depth + 1) for item in result]
        return _NOT_KEPT if any(item is _NOT_KEPT for item in items) else kind(items)
    if kind is dict and all(type(key) is str for key in result):
        items = [_frozen(item, inputs, depth + 1) for item in result.values()]
        return _NOT_KEPT if any(item is _NOT_KEPT for item in items) else dict(zip(result, items))
    return _NOT_KEPT


def _fresh(value: Any) -> Any:
    """A kept result as a caller gets it: its lists and dicts new (a check may change them), the read-only arrays
    and the tuples holding only those shared."""
    kind = type(value)
    if kind is list:
        return [_fresh(item) for item in value]
    if kind is dict:
        return {key: _fresh(item) for key, item in value.items()}
    if kind is tuple and any(type(item) in (list, dict, tuple) for item in value):
        return tuple(_fresh(item) for item in value)
    return value


def _answered(found: Any, drawn: list[np.random.Generator] | None) -> Any:
    """A kept answer as the caller gets it: for a call handed generators (``drawn``), the result, each generator
    set to the state the call left it in."""
    if drawn is None:
        return found
    result, states = found
    for generator, state in zip(drawn, states, strict=True):
        generator.bit_generator.state = state
    return result


class ResultCache:
    """Results of reference calls keyed by :attr:`grader.calls.Call.digest` (:meth:`~grader.calls.Call.seeded` for a
    call handed generators); at most ``limit`` bytes, least recently used dropped first (``grader.memo``)."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.enabled = True  # off where one submission is checked (``attnkit check``): calls rarely repeat there
        self.memo = Memo(limit)
        self.kept: Kept | None = None  # results kept between runs (``attnkit check`` in the checkout: ``checking``)

    @property
    def hits(self) -> int:
        return self.memo.hits

    @property
    def misses(self) -> int:
        return self.memo.misses

    def call(self, call: Call, function: Callable) -> Any:
        """``function(*call.args, **call.kwargs)``, from the cache when the same call was answered before. A call
        handed seeded generators (:meth:`grader.calls.Call.seeded`) is keyed by their states too, and its answer
        kept with their states after it: a kept answer moves each generator on as the call would have."""
        args, kwargs = call.args, call.kwargs
        kept = self.kept
        key = call.digest if self.enabled or kept is not None else None
        drawn: list[np.random.Generator] | None = None
        if key is None and (self.enabled or kept is not None):
            seeded = call.seeded()
            if seeded is not None:
                key, drawn = seeded
        if key is not None:
            found = self.memo.get(key) if self.enabled else MISSING
            if found is not MISSING:
                return _answered(_fresh(found), drawn)
            if kept is not None:
                found = kept.get(call.module, key)
                if found is not MISSING:
                    return _answered(found, drawn)
        result = function(*args, **kwargs)
        frozen = _frozen(result, _Inputs(_arrays(args) + _arrays(list(kwargs.values()))))
        if frozen is _NOT_KEPT:
            return result
        if key is not None:   # the result read-only all the same where nothing is kept
            entry = frozen if drawn is None else (frozen, [generator.bit_generator.state for generator in drawn])
            if self.enabled:
                self.memo.put(key, entry)
            if kept is not None:
                kept.add(call.module, key, entry)
        return _fresh(frozen)


class LiveReference(Namespace):
    """The reference solutions, computing: ``reference().softmax.softmax(x)``. Plain functions go through the
    cache; a class is called as it is; a method of an object a call returned (``KVCache.append``) is called on
    that object."""

    kind = ReferenceKind.LIVE

    def __init__(self, modules: dict[str, ModuleType], cache: ResultCache):
        self._modules, self._cache = modules, cache
        self._memoised: dict[tuple[str, str], bool] = {}   # (module, name) -> a plain function (memoised)

    def sources(self) -> dict[str, Path]:
        """Each reference module's source file, by module."""
        return {name: Path(module.__file__) for name, module in self._modules.items() if module.__file__}

    def resolve(self, module: str, function: str) -> None:
        if not callable(self.function(module, function)):
            raise AttributeError(f"{module}.{function} of the reference cannot be called")

    def function(self, module: str, function: str) -> Callable:
        """The reference's own ``module.function`` (AttributeError when there is none)."""
        if module not in self._modules:
            raise AttributeError(module)
        return getattr(self._modules[module], function)

    def call(self, call: Call) -> Any:
        if call.method:
            return getattr(call.args[0], call.name)(*call.args[1:], **call.kwargs)
        target = self.function(call.module, call.function)
        memoised = self._memoised.get((call.module, call.function))
        if memoised is None:
            memoised = self._memoised[(call.module, call.function)] = inspect.isfunction(target)
        if memoised:
            return self._cache.call(call, target)
        return target(*call.args, **call.kwargs)  # a class (``KVCache``): its objects are never memoised

    def mistaken(self, call: Call, mistake: Mistake, compute: Callable[[], Any]) -> Any:
        return compute()


@lru_cache(maxsize=1)
def cache() -> ResultCache:
    """The process-wide cache of reference results (one per grader process)."""
    return ResultCache()


@contextmanager
def unmemoised() -> Iterator[None]:
    """The reference answers without its cache for a block: where one submission is checked once, a digest of
    every call's arguments costs more than the few repeated calls it saves."""
    before, cache().enabled = cache().enabled, False
    try:
        yield
    finally:
        cache().enabled = before


@contextmanager
def checking() -> Iterator[None]:
    """The reference as one ``attnkit check`` run asks it, for a block: without its memo
    (:func:`unmemoised`), and from the results earlier runs kept (``grader.kept_results``); what the block computed
    anew is kept at its end."""
    with unmemoised():
        before, cache().kept = cache().kept, Kept(reference().sources())
        try:
            yield
        finally:
            kept, cache().kept = cache().kept, before
            if kept is not None:
                kept.save()


@lru_cache(maxsize=1)
def reference() -> LiveReference:
    """The reference solutions with one module per exercise (``reference().softmax.softmax``), memoised."""
    return LiveReference({e.id: importlib.import_module(f"solutions.{e.id}") for e in curriculum.exercises()},
                         cache())
