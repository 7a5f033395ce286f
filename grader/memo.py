"""One bounded memo for the grading process: values kept by key, at most a number of bytes, least recently used
dropped first. The reference's results (``grader.reference``), the mistaken references' outputs
(``grader.mistaken``) and the diagnoses of wrong values (``grader.diagnosis``) are each kept in one: a class asks the
same questions again and again, and a grading process must not grow with the class.

A value's size (:func:`size_of`) is its arrays' bytes plus a fixed charge per entry and per container, counted
through tuples, lists and dicts (at most :data:`DEPTH` deep; anything deeper is charged as one node).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Hashable

import numpy as np

NODE_BYTES = 64   # charged per entry and per container or scalar: what a Python object costs, roughly
DEPTH = 64        # nesting followed when a value is sized (the wire's limit is 32)
MISSING = object()


def size_of(value: Any, depth: int = 0) -> int:
    """The bytes ``value`` holds, roughly: its arrays' ``nbytes`` plus :data:`NODE_BYTES` per node."""
    if isinstance(value, np.ndarray):
        return value.nbytes + NODE_BYTES
    if depth < DEPTH and isinstance(value, (tuple, list)):
        return NODE_BYTES + sum(size_of(item, depth + 1) for item in value)
    if depth < DEPTH and isinstance(value, dict):
        return NODE_BYTES + sum(size_of(item, depth + 1) for item in value.values())
    return NODE_BYTES


class Memo:
    """``key -> value``, at most ``limit`` bytes (:func:`size_of` unless the caller states a size); thread-safe
    (``attnkit check`` runs exercises at once). A value larger than the limit is not kept."""

    def __init__(self, limit: int):
        self.limit = limit
        self.bytes = 0
        self.hits = self.misses = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key`` (now the most recently used), or :data:`MISSING`."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return MISSING
            self.hits += 1
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, size: int | None = None) -> None:
        """Keep ``value`` for ``key`` (a key kept already keeps its first value), dropping the least recently used
        until the memo holds at most its limit."""
        size = size_of(value) + NODE_BYTES if size is None else size + NODE_BYTES
        if size > self.limit:
            return
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.limit:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0
