"""In the child, under ``attnkit grade``: sibling exercises answered by the reference, over the wire.

When exercise E's code calls a function of another exercise's module (attention calling
``softmax``), E must be graded on its own code only. The trusted side sends, at spawn, the
public function names of each sibling's reference module; :func:`install` puts a stand-in
module under every name the student's code may import it by (``softmax``, ``submission.softmax``).
A stand-in function sends a ``callback`` frame on the child's socket and blocks for the answer,
which the trusted side computes with the reference (``grader.sandbox.host.transport``). No reference code
ever enters the child. A sibling's class the sandbox lends (``KVCache`` is the sandbox's ``PlainCache``:
``runtime.LENT_CLASSES``) comes from the sandbox, so that a broken class of an earlier exercise costs
nothing in a later one; its objects cross a stand-in call by value (their keys and values),
and what the reference appends to them is appended here (:func:`mark_caches`, :func:`unmark_caches`).
Anything else of a sibling (a constant, an object the wire cannot carry) comes from the student's own
module, loaded under another name on first use, and so does a call too large for the trusted side to
compute (:data:`WORK_LIMIT`).

Self-contained: the standard library, numpy and :mod:`wire` (loaded by path in the zygote).
"""
from __future__ import annotations

import builtins
import importlib.util
import operator
import os
import re
import sys
import types

import numpy as np

try:  # inside the grader package
    from .. import wire
    from .runtime import PlainCache
except ImportError:  # loaded by path in the zygote
    import attnkit_sandbox_wire as wire  # type: ignore[no-redef]
    from attnkit_sandbox_runtime import PlainCache  # type: ignore[no-redef]

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
MAX_MODULES, MAX_FUNCTIONS = 64, 256   # bounds on what a spawn request may ask to stand in for
# A call the reference answers on the trusted side must stay small. Its work is estimated from its arguments
# (:func:`work`); past WORK_LIMIT the student's own function runs instead (the checks' sibling calls stay under
# 10**5 but for the shipped tiny GPT-2's blocks, about 1.3 * 10**7; a student's tiled attention calling its softmax
# on (2048, 16) blocks does not), and the trusted side refuses any callback past it.
WORK_LIMIT = 1 << 24


def _as_size(value) -> int | None:
    """What ``value`` counts as when a function takes it for a size (``causal_mask(n)``): an integer, a numpy
    integer, a 0-d numeric array or numpy scalar (``np.array(23200)``), anything with ``__index__``; else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (np.ndarray, np.generic)) and value.ndim == 0 and value.dtype.kind in "iuf":
        number = float(value)
        return min(int(abs(number)), WORK_LIMIT + 1) if number == number and abs(number) != float("inf") \
            else WORK_LIMIT + 1
    if isinstance(value, np.ndarray):
        return None
    try:
        return min(abs(operator.index(value)), WORK_LIMIT + 1)
    except Exception:  # noqa: BLE001 - not a size (a student's __index__ may raise anything: then it is not one)
        return None


def work(args: tuple, kwargs: dict) -> int:
    """An upper bound on the size of what a kit function computes from these arguments: (elements + 1) x the
    product of the arguments that can stand for sizes (:func:`_as_size`: ``causal_mask(n)``, ``alibi_bias(h, n,
    m)``, ``repeat_kv(x, r)``, a 0-d array as well as an int) x the longest axis or size (an attention's n x n
    scores). The arrays of a parameter tree (inside a dict) count as elements, but their widths are not sequence
    lengths: they do not set the longest axis. Capped just past :data:`WORK_LIMIT`."""
    elements, sizes, longest = 1, 1, 1
    pending, seen = [(args, False), (list(kwargs.values()), False)], 0
    while pending and seen < 100_000:
        value, in_tree = pending.pop()
        seen += 1
        size = _as_size(value)
        if size is not None:
            sizes = min(sizes * max(size, 1), WORK_LIMIT + 1)
            longest = max(longest, size)
            elements += 1
        elif isinstance(value, np.ndarray):
            elements += value.size
            longest = longest if in_tree else max(longest, *value.shape, 1)
        elif isinstance(value, dict):
            pending.extend((item, True) for item in value.values())
        elif isinstance(value, (tuple, list)):
            pending.extend((item, in_tree) for item in value)
            longest = longest if in_tree else max(longest, len(value))
        else:
            elements += 1
    if pending:
        return WORK_LIMIT + 1
    return min(elements * sizes * longest, WORK_LIMIT + 1)


def too_large(args: tuple, kwargs: dict) -> bool:
    return work(args, kwargs) > WORK_LIMIT


CACHE_MARK = "attnkit_lent_cache"   # a lent cache crossing a stand-in call: {CACHE_MARK: index, keys, values}


class Unsendable(TypeError):
    """A stand-in call's arguments hold something the wire cannot carry: the student's own function runs."""


def mark_caches(value, caches: list, depth: int = 0):
    """``value`` with every lent cache (a ``PlainCache``, in tuples, lists and dicts too) replaced by a mark that
    carries its keys and values and its index in ``caches`` (the same object, the same index)."""
    if depth > wire.MAX_DEPTH:
        raise Unsendable("arguments nested too deeply")
    if type(value) is PlainCache:
        index = next((i for i, cache in enumerate(caches) if cache is value), len(caches))
        if index == len(caches):
            caches.append(value)
        return {CACHE_MARK: index, "keys": value.keys, "values": value.values}
    if type(value) in (tuple, list):
        return type(value)(mark_caches(item, caches, depth + 1) for item in value)
    if type(value) is dict:
        return {key: mark_caches(item, caches, depth + 1) for key, item in value.items()}
    return value


def unmark_caches(value, caches: list, depth: int = 0):
    """On the trusted side: every mark replaced by a ``PlainCache`` holding its keys and values; ``caches`` gets
    ``(cache, length)`` per mark index, so that what the reference appends can be sent back (:func:`grown`)."""
    if depth > wire.MAX_DEPTH:
        raise wire.WireError("arguments nested too deeply")
    if type(value) is dict and CACHE_MARK in value:
        index, keys, values = value.get(CACHE_MARK), value.get("keys"), value.get("values")
        if type(index) is not int or not 0 <= index <= len(caches) or not (
                isinstance(keys, np.ndarray) and isinstance(values, np.ndarray) and keys.ndim == values.ndim == 2
                and len(keys) == len(values)):
            raise wire.WireError("malformed cache")
        if index == len(caches):
            cache = PlainCache()
            for key, value in zip(keys, values):
                cache.append(key, value)
            caches.append((cache, len(cache)))
        return caches[index][0]
    if type(value) in (tuple, list):
        return type(value)(unmark_caches(item, caches, depth + 1) for item in value)
    if type(value) is dict:
        return {key: unmark_caches(item, caches, depth + 1) for key, item in value.items()}
    return value


def grown(caches: list) -> list:
    """``[[index, new keys, new values], ...]``: what the reference appended to each cache of :func:`unmark_caches`."""
    return [[index, cache.keys[length:], cache.values[length:]] for index, (cache, length) in enumerate(caches)
            if len(cache) > length]


def exception_type(name: str) -> type:
    """The exception class the reference's error is raised as in the student's code (same name)."""
    found = getattr(builtins, name, None) or getattr(np.exceptions, name, None)
    if isinstance(found, type) and issubclass(found, Exception):
        return found
    return type(name if NAME.match(name) else "ReferenceError", (Exception,), {})


class Caller:
    """Sends one callback frame per stand-in call on ``sock`` and decodes the trusted side's answer, read by
    ``frames`` (the child's :class:`wire.Receiver` of that socket)."""

    def __init__(self, sock, frames):
        self.sock, self.frames = sock, frames

    def __call__(self, module: str, name: str, args: tuple, kwargs: dict):
        arrays: list = []
        caches: list = []   # the lent caches among the arguments, by mark index
        try:
            header = {"callback": {"module": module, "name": name},
                      "args": wire.encode(mark_caches(tuple(args), caches), arrays),
                      "kwargs": wire.encode(list(mark_caches(dict(kwargs), caches).items()), arrays)}
        except TypeError as error:  # an argument the wire cannot carry (an object, a huge int)
            raise Unsendable(f"{name}() got an argument the reference cannot take: {error}") from None
        try:
            wire.send(self.sock, header, arrays)
            answer, values = self.frames.recv()
        except (wire.WireError, OSError):
            os._exit(3)  # the trusted side is gone or stopped answering sensibly
        if answer.get("ok") is True:
            for index, keys, values_appended in wire.decode(answer.get("caches", {"t": "list", "items": []}), values):
                for k, v in zip(keys, values_appended):  # what the reference appended, appended here
                    caches[index].append(k, v)
            return wire.decode(answer.get("value"), values)
        reported = answer.get("error")
        if not isinstance(reported, dict):
            reported = {}
        raise exception_type(str(reported.get("type", "Exception")))(str(reported.get("message", ""))[:2000])


def _stand_in_function(caller: Caller, module: str, name: str, own):
    """``own()``: the student's module whose ``name`` runs a call too large for the reference (None: the function
    the stand-in replaced, kept as ``stand_in.student``)."""
    def stand_in(*args, **kwargs):
        if too_large(args, kwargs):  # the trusted side does no unbounded work for the student's code
            return (stand_in.student if own is None else getattr(own(), name))(*args, **kwargs)
        try:
            return caller(module, name, args, kwargs)
        except Unsendable:  # an object of the student's own among the arguments: their own function takes it
            return (stand_in.student if own is None else getattr(own(), name))(*args, **kwargs)

    stand_in.student = None  # type: ignore[attr-defined]

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__module__ = module
    return stand_in


def _own_module(root: str, package: str, module: str):
    """The student's own ``module.py``, loaded under a private name (for what the reference does not stand in)."""
    private = f"{package}._own_{module}"
    if private not in sys.modules:
        spec = importlib.util.spec_from_file_location(private, os.path.join(root, f"{module}.py"))
        if spec is None or spec.loader is None:
            raise ImportError(f"No module named '{package}.{module}'")
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[private] = loaded
        try:
            spec.loader.exec_module(loaded)
        except BaseException:
            del sys.modules[private]
            raise
    return sys.modules[private]


def own_functions(request, caller: Caller) -> tuple[str, dict]:
    """(module, {name: stand-in}) for the functions of the exercise's own module that the reference answers while
    another function of that module runs (``{"module": ..., "names": [...]}`` from the spawn request)."""
    if not isinstance(request, dict) or not (isinstance(request.get("module"), str) and NAME.match(request["module"])):
        return "", {}
    module, names = request["module"], request.get("names")
    names = [name for name in (names[:MAX_FUNCTIONS] if isinstance(names, list) else [])
             if isinstance(name, str) and NAME.match(name) and not name.startswith("_")]
    return module, {name: _stand_in_function(caller, module, name, None) for name in names}


def install(functions: dict, caller: Caller, root: str, package: str, lent: dict | None = None) -> None:
    """Stand-ins for ``{module: [names]}`` under ``module`` and ``package.module``: a name in ``lent``
    (``{name: class}``, the sandbox's classes) is that class, any other a stand-in function."""
    if not isinstance(functions, dict) or len(functions) > MAX_MODULES:
        return
    for module, names in functions.items():
        if not (isinstance(module, str) and NAME.match(module) and isinstance(names, list)):
            continue
        stand_in = types.ModuleType(f"{package}.{module}", f"{module}.py answered by the reference solution")
        stand_in.__file__ = f"<attnkit reference {module}>"

        def own(module=module):
            return _own_module(root, package, module)

        for name in names[:MAX_FUNCTIONS]:
            if isinstance(name, str) and NAME.match(name) and not name.startswith("_"):
                lent_class = (lent or {}).get(name)
                setattr(stand_in, name, lent_class or _stand_in_function(caller, module, name, own))

        def fallback(attribute, own=own):
            if attribute.startswith("__"):
                raise AttributeError(attribute)
            return getattr(own(), attribute)

        stand_in.__getattr__ = fallback  # type: ignore[method-assign]
        sys.modules[f"{package}.{module}"] = sys.modules[module] = stand_in
        setattr(sys.modules[package], module, stand_in)
