"""A canonical digest of a call's arguments: the key of the reference's memo (``grader.reference``) and of the
mistaken references' memo (``grader.mistaken``). Arrays count by dtype, shape and bytes; numbers, strings and
``None`` by type and value; tuples, lists and string-keyed dicts by their items, in order. Anything else cannot be
keyed (:class:`Uncacheable`)."""
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np


class Uncacheable(Exception):
    """A value :func:`feed` has no canonical encoding for."""


def feed(digest, value: Any) -> None:
    """Add a canonical encoding of ``value`` to ``digest``; :class:`Uncacheable` for anything else."""
    if isinstance(value, np.ndarray) and type(value) is np.ndarray and value.dtype.kind in "biuf":
        digest.update(f"a{value.dtype.str}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).data)
    elif value is None or type(value) in (bool, int, float, str):
        digest.update(f"s{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, np.generic) and value.dtype.kind in "biuf":
        digest.update(f"g{value.dtype.str}:{value!r};".encode())
    elif type(value) in (tuple, list):
        digest.update(f"{type(value).__name__}{len(value)}(".encode())
        for item in value:
            feed(digest, item)
        digest.update(b")")
    elif type(value) is dict and all(type(key) is str for key in value):
        digest.update(f"dict{len(value)}(".encode())
        for key, item in value.items():
            feed(digest, key)
            feed(digest, item)
        digest.update(b")")
    else:
        raise Uncacheable


def call_digest(args: tuple, kwargs: dict, name: str = "") -> bytes | None:
    """The digest of a call (``name`` first when given) of ``args`` and ``kwargs``; None when they hold anything
    :func:`feed` cannot encode."""
    digest = hashlib.blake2b(name.encode(), digest_size=20)
    try:
        feed(digest, args)
        feed(digest, sorted(kwargs.items()))
    except Uncacheable:
        return None
    return digest.digest()
