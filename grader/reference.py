"""The reference solutions as the checks see them: ``ref.softmax.softmax(...)`` (trusted, in-process).

Every check input comes from an ``rng`` seeded by the check's name, so a class of 300 students
asks the reference the same questions 300 times. :func:`reference` therefore memoises the
reference's plain functions: a call whose arguments are arrays, numbers, strings, ``None`` or
tuples/lists of those is keyed by a digest of their dtypes, shapes and bytes, and its result
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
from types import ModuleType, SimpleNamespace
from typing import Any, Callable, Iterator

import numpy as np

from . import curriculum
from .digest import call_digest

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
    """Results of reference calls keyed by a digest of the call; bounded by bytes, LRU."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.limit = limit
        self.enabled = True  # off where one submission is checked (``attnkit check``): calls rarely repeat there
        self.entries: OrderedDict[bytes, Any] = OrderedDict()
        self.bytes = 0
        self.hits = self.misses = 0
        self._lock = threading.Lock()  # ``attnkit check`` runs two exercises at once; the call itself runs unlocked

    def call(self, name: str, function: Callable, args: tuple, kwargs: dict) -> Any:
        if not self.enabled:  # the result read-only all the same
            result = function(*args, **kwargs)
            frozen = _frozen(result, _arrays(args) + _arrays(list(kwargs.values())))
            return result if frozen is None else frozen
        key = call_digest(args, kwargs, name)
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


class _MemoModule:
    """A reference module whose plain functions go through the cache."""

    def __init__(self, module: ModuleType, cache: ResultCache):
        self._module = module
        self._cache = cache

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if inspect.isfunction(value):
            qualified = f"{self._module.__name__}.{name}"

            def memoised(*args, **kwargs):
                return self._cache.call(qualified, value, args, kwargs)

            memoised.__name__ = name
            memoised.__doc__ = value.__doc__
            setattr(self, name, memoised)
            return memoised
        return value


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
def reference() -> SimpleNamespace:
    """A namespace with one (memoising) attribute per exercise module of the ``solutions`` package."""
    modules = {e.module: _MemoModule(importlib.import_module(f"solutions.{e.module}"), cache())
               for e in curriculum.exercises()}
    return SimpleNamespace(**modules)
