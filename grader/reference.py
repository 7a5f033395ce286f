"""The reference solutions as the checks see them: ``ref.softmax.softmax(...)`` (trusted, in-process).

Every check input comes from an ``rng`` seeded by the check's name, so a class of 300 students
asks the reference the same questions 300 times. :func:`reference` therefore memoises the
reference's plain functions: a call whose arguments have a canonical form (arrays, numbers, strings, ``None``,
tuples, lists and string-keyed dicts of those: ``grader.calls``) is keyed by its digest, and its result
(an array or a tuple of arrays) is kept read-only, so a check cannot alter what the next
student is compared with. Classes, and calls with any other argument, go straight through.
The cache holds at most :data:`CACHE_BYTES` of results (least recently used dropped first).
"""
from __future__ import annotations

import importlib
import inspect
import threading
from collections import OrderedDict
from contextlib import contextmanager
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from . import curriculum
from .calls import Call, Namespace
from .interfaces import ReferenceKind

if TYPE_CHECKING:
    from .mistakes.model import Mistake

CACHE_BYTES = 256 * 2**20


def _arrays(value: Any) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [array for item in value for array in _arrays(item)]
    if isinstance(value, dict):
        return [array for item in value.values() for array in _arrays(item)]
    return []


def _own(array: np.ndarray, inputs: list[np.ndarray]) -> np.ndarray:
    """``array``, copied when it may be a view of an input (the check may change its inputs later)."""
    shared = any(np.may_share_memory(array, source) for source in inputs)
    owned = array.copy() if shared else array
    owned.flags.writeable = False
    return owned


def _frozen(result: Any, inputs: list[np.ndarray]) -> Any | None:
    """A read-only copy of ``result`` when it is an array or a tuple of arrays; None when not cacheable."""
    if isinstance(result, np.ndarray) and type(result) is np.ndarray:
        return _own(result, inputs)
    if isinstance(result, tuple) and all(isinstance(item, np.ndarray) and type(item) is np.ndarray for item in result):
        return tuple(_own(item, inputs) for item in result)
    return None


def _size(result: Any) -> int:
    return sum(item.nbytes for item in (result if isinstance(result, tuple) else (result,)))


class ResultCache:
    """Results of reference calls keyed by :attr:`grader.calls.Call.digest`; bounded by bytes, LRU."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.limit = limit
        self.enabled = True  # off where one submission is checked (``attnkit check``): calls rarely repeat there
        self.entries: OrderedDict[bytes, Any] = OrderedDict()
        self.bytes = 0
        self.hits = self.misses = 0
        self._lock = threading.Lock()  # ``attnkit check`` runs two exercises at once; the call itself runs unlocked

    def call(self, call: Call, function: Callable) -> Any:
        """``function(*call.args, **call.kwargs)``, from the cache when the same call was answered before."""
        args, kwargs = call.args, call.kwargs
        if not self.enabled:  # the result read-only all the same
            result = function(*args, **kwargs)
            frozen = _frozen(result, _arrays(args) + _arrays(list(kwargs.values())))
            return result if frozen is None else frozen
        key = call.digest
        if key is None:
            return function(*args, **kwargs)
        with self._lock:
            found = self.entries.get(key)
            if found is not None:
                self.hits += 1
                self.entries.move_to_end(key)
                return found
            self.misses += 1
        result = function(*args, **kwargs)
        frozen = _frozen(result, _arrays(args) + _arrays(list(kwargs.values())))
        if frozen is None:
            return result
        if _size(frozen) <= self.limit:
            with self._lock:
                if key not in self.entries:
                    self.entries[key] = frozen
                    self.bytes += _size(frozen)
                while self.bytes > self.limit:
                    _, dropped = self.entries.popitem(last=False)
                    self.bytes -= _size(dropped)
        return frozen


class LiveReference(Namespace):
    """The reference solutions, computing: ``reference().softmax.softmax(x)``. Plain functions go through the
    cache; a class is called as it is; a method of an object a call returned (``KVCache.append``) is called on
    that object."""

    kind = ReferenceKind.LIVE

    def __init__(self, modules: dict[str, ModuleType], cache: ResultCache):
        self._modules, self._cache = modules, cache
        self._memoised: dict[tuple[str, str], bool] = {}   # (module, name) -> a plain function (memoised)

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


@lru_cache(maxsize=1)
def reference() -> LiveReference:
    """The reference solutions with one module per exercise (``reference().softmax.softmax``), memoised."""
    return LiveReference({e.id: importlib.import_module(f"solutions.{e.id}") for e in curriculum.exercises()},
                         cache())
