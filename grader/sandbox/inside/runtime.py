"""What runs on the student's side: load the submission as a package and answer requests.

Used inside the sandboxed child (loaded by path by the zygote, before any student code) and,
for trusted implementations only, in-process (the benchmark floor and the project's tests).
Self-contained: the standard library, numpy and :mod:`wire`.
"""
from __future__ import annotations

import hashlib
import importlib
import io
import linecache
import os
import sys
import traceback
import types
from typing import Any

import numpy as np

try:  # inside the grader package
    from .. import wire
    from . import failing_line
except ImportError:  # loaded by path in the zygote, where the grader package is not importable
    import attnkit_sandbox_failing_line as failing_line  # type: ignore[no-redef]
    import attnkit_sandbox_wire as wire  # type: ignore[no-redef]

MESSAGE_LIMIT = 2000
REAL_PATHS = 512  # file names of traceback frames whose real path is remembered


def safe_text(value, show=str) -> str:
    """``show(value)`` (str or repr) of something the student made, whose ``__str__`` may raise or never end."""
    try:
        text = show(value)
        return text if type(text) is str else "(unreadable)"
    except BaseException:  # noqa: B902 - a student's __str__ may raise anything, even BaseException
        return "(its message could not be read)"


class _CappedOutput(io.RawIOBase):
    """Writes to ``fd`` until ``limit`` bytes in all went through; then accepts and discards everything."""

    def __init__(self, fd: int, limit: int):
        self.fd, self.left = fd, limit

    def writable(self) -> bool:
        return True

    def close(self) -> None:  # shared by stdout and stderr: one of them dropped must not close the other
        pass

    def fileno(self) -> int:  # writes straight to it meet only the hard limit (RLIMIT_FSIZE)
        return self.fd

    def write(self, data) -> int:
        size = len(data)
        if self.left > 0:
            kept = bytes(data[: self.left])
            self.left -= len(kept)
            try:
                os.write(self.fd, kept)
            except OSError:
                self.left = 0
        return size


def capped_streams(fd: int, limit: int):
    """(stdout, stderr) text streams that share one cap of ``limit`` bytes on ``fd``."""
    raw = _CappedOutput(fd, limit)
    return tuple(io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", errors="replace", line_buffering=True)
                 for _ in range(2))


SNAPSHOT_BYTES = 64 << 20  # arguments larger than this (together) are not watched for changes
WATCHED_ARRAYS = 256       # nor more than this many arrays per call
COPIED_BYTES = 64 << 10    # arrays up to this size are compared by a copy of their bytes, larger ones by digest


def argument_arrays(args: tuple, kwargs: dict) -> list:
    """[(label, array)] of every ndarray argument, nested in tuples, lists and dicts too: ``0``, ``mask``,
    ``1[0]``, ``1['c_fc']['weight']``.

    Bounded: at most :data:`WATCHED_ARRAYS` arrays, the first :data:`SNAPSHOT_BYTES` of them."""
    found: list = []
    left = [SNAPSHOT_BYTES]
    for index, value in enumerate(args):
        if type(value) is np.ndarray and value.nbytes <= left[0] and len(found) < WATCHED_ARRAYS:  # most arguments,
            left[0] -= value.nbytes                                                              # without a call
            found.append((str(index), value))
        elif type(value) in CONTAINERS:
            _visit(value, str(index), 0, found, left)
    for name, value in kwargs.items():
        _visit(value, str(name), 0, found, left)
    return found


CONTAINERS = (tuple, list, dict)


def _visit(value, label: str, depth: int, found: list, left: list) -> None:
    """The arrays in one argument, into ``found`` (``left``: the bytes the bound leaves)."""
    if len(found) >= WATCHED_ARRAYS or depth > 8:
        return
    if type(value) is np.ndarray:
        if value.nbytes <= left[0]:
            left[0] -= value.nbytes
            found.append((label, value))
    elif type(value) in (tuple, list):
        for index, item in enumerate(value[:WATCHED_ARRAYS]):
            _visit(item, f"{label}[{index}]", depth + 1, found, left)
    elif type(value) is dict:
        for key, item in list(value.items())[:WATCHED_ARRAYS]:
            _visit(item, f"{label}[{key!r}]", depth + 1, found, left)


def snapshot(array) -> tuple | None:
    """What an argument array holds (dtype, shape, and its bytes, or their digest past :data:`COPIED_BYTES`
    so that no large copy is alive during the call: a ``measure`` call's peak memory must not include it)."""
    try:
        if array.nbytes <= COPIED_BYTES:
            return array.dtype.str, array.shape, array.tobytes()
        data = array if array.flags.c_contiguous else array.copy()
        return array.dtype.str, array.shape, hashlib.blake2b(data.view(np.uint8).reshape(-1)).digest()
    except (MemoryError, ValueError):
        return None


class PlainCache:
    """The kit's KV-cache interface (``append(k, v)``, ``keys (t, d_k)``, ``values (t, d_v)``, ``len``) written by
    the sandbox, not the student: checks of a decode step pass it (``impl.plain_cache()``), so that a broken
    ``KVCache`` of the student's costs points in the cache exercise only. It keeps copies of what it is given."""

    def __init__(self):
        self._keys: list = []
        self._values: list = []

    def append(self, k, v):
        self._keys.append(np.array(k))
        self._values.append(np.array(v))

    @property
    def keys(self):
        return np.stack(self._keys) if self._keys else np.empty((0, 0))

    @property
    def values(self):
        return np.stack(self._values) if self._values else np.empty((0, 0))

    def __len__(self):
        return len(self._keys)


# Under ``attnkit grade``, the classes of other exercises the sandbox lends instead of the student's, by name
# (``runner.reference_siblings`` names those a reference module defines; ``standin.install`` puts them in place):
# code that builds KV caches gets this cache, not a KVCache whose bugs belong to the exercise that wrote it
LENT_CLASSES = {"KVCache": PlainCache}


def layout(array) -> tuple:
    """An argument array's dtype and shape (what changes without its bytes changing)."""
    return array.dtype, array.shape


class Unresolved(LookupError):
    """What the trusted side asked for does not exist on the student's side (not the student's own error)."""


class Responder:
    """Answers the requests of :mod:`grader.sandbox.host.proxy`: an object table for handles, and the ops.

    Subclasses say where module-level names come from (:meth:`lookup`) and what importing a
    module means (:meth:`prepare`): the submission's files in the sandbox, a notebook's globals
    in nbgrader.
    """

    missing_object = "that object no longer exists in the student's process"

    def __init__(self):
        self.objects: dict[int, object] = {}
        self._next_id = 1
        self.last_mutated: list[str] = []      # labels of the last call's arguments it changed in place
        self.last_arrays: list = []            # the arrays the last call received (for ``touch_last_args``)
        self.own_stand_ins: tuple[str, dict] = ("", {})  # attnkit grade: (own module, {name: stand-in})
        self.own_trusted: set[str] = set()  # of those, the ones the trusted side says run as written (trust_own)
        # compare the arguments' bytes before and after each call; off in a child, where the trusted side compares
        # them itself in the memory it shares with the child (grader/sandbox/host/shared.py) and only a change of an
        # argument's shape or dtype (``x.shape = ...``, which leaves its bytes alone) is looked for here
        self.watch_bytes = True

    def lookup(self, module: str, name: str):
        raise NotImplementedError

    def load(self, module: str) -> Any:
        """The module ``module`` as the student wrote it (its namespace holds the names :meth:`lookup` finds)."""
        raise NotImplementedError

    def describe_error(self, error: BaseException, exercise_module: str) -> dict:
        """The error the student's code raised, as the fields the trusted side reads (``proxy.error_info``)."""
        raise NotImplementedError

    def prepare(self, module: str) -> None:
        raise NotImplementedError

    # -- objects -----------------------------------------------------------------
    def keep(self, value) -> int:
        handle = self._next_id
        self._next_id += 1
        self.objects[handle] = value
        return handle

    def resolve(self, target: dict):
        """A module-level name, an object the trusted side holds a handle of, or (``method``) one of its
        attributes, fetched now: ``obj.append(k, v)`` in one request."""
        if "handle" in target:
            try:
                subject = self.objects[int(target["handle"])]
            except KeyError:
                raise Unresolved(self.missing_object) from None
            return getattr(subject, str(target["method"])) if "method" in target else subject
        return self.lookup(str(target["module"]), str(target["name"]))

    def unwrap(self, value):
        """Arguments: trusted-side handles become the objects they stand for."""
        if type(value) in wire.LEAVES:  # most arguments, first
            return value
        if isinstance(value, wire.Handle):
            return self.objects[value.id]
        if isinstance(value, tuple):
            return tuple(self.unwrap(v) for v in value)
        if isinstance(value, list):
            return [self.unwrap(v) for v in value]
        if isinstance(value, dict):
            return {k: self.unwrap(v) for k, v in value.items()}
        return value

    # -- requests ----------------------------------------------------------------
    def run(self, op: str, target: dict, args=(), kwargs=None, name: str = ""):
        """Perform one request; returns the raw Python result (exceptions propagate)."""
        self.last_mutated = []
        if op == "import":
            self.prepare(str(target["module"]))
            return None
        if op == "touch_last_args":
            return self.touch_last_arrays()
        if op == "plain_cache":
            return PlainCache()
        if op == "generator":  # a seeded numpy Generator made here: the rng a sampling check passes
            seed = args[0] if len(args) == 1 and type(args[0]) is int and 0 <= args[0] < 2**63 else 0
            return np.random.default_rng(seed)
        subject = self.resolve(target)
        if op == "getattr":
            return getattr(subject, name)
        if op == "len":
            return len(subject)
        arguments = tuple(args)
        if not wire.LEAVES.issuperset(map(type, arguments)):  # (most calls pass arrays and numbers only)
            arguments = self.unwrap(arguments)
        keywords = {k: self.unwrap(v) for k, v in kwargs.items()} if kwargs else {}
        if op not in ("call", "measure"):
            raise Unresolved(f"unknown request {op!r}")
        inputs = argument_arrays(arguments, keywords)
        look = snapshot if self.watch_bytes else layout
        before = [look(array) for _, array in inputs]
        self.last_arrays = [array for _, array in inputs]
        if op == "call":
            result = self.call_alone(target, subject, arguments, keywords)
        else:  # "measure": peak traced memory of one call, in bytes
            import tracemalloc

            tracemalloc.start()
            try:
                result = (subject(*arguments, **keywords), tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
        self.last_mutated = [label for (label, array), old in zip(inputs, before)
                             if old is not None and look(array) != old]
        return result

    def call_alone(self, target: dict, subject, args: tuple, kwargs: dict):
        """``subject(*args, **kwargs)``; under ``attnkit grade`` a function of the exercise's own module runs with
        the module's other functions answered by the reference (:attr:`own_stand_ins`), so it is graded on its own
        code: the module's globals point to the stand-ins for the call's duration (but for the functions whose
        checks have passed, :attr:`own_trusted`)."""
        module, stand_ins = self.own_stand_ins
        if not stand_ins or "handle" in target or target.get("module") != module or target.get("name") not in stand_ins:
            return subject(*args, **kwargs)
        namespace = self.load(module).__dict__
        saved = {name: namespace[name] for name in stand_ins
                 if name != target["name"] and name not in self.own_trusted and name in namespace}
        for name, student in saved.items():
            stand_ins[name].student = student
            namespace[name] = stand_ins[name]
        try:
            return subject(*args, **kwargs)
        finally:
            for name, student in saved.items():
                if namespace.get(name) is stand_ins[name]:
                    namespace[name] = student

    def trust_own(self, names) -> None:
        """The own functions ``names`` (the trusted side's list) run as written from now on (``grader.proven``)."""
        if isinstance(names, list):
            stand_ins = self.own_stand_ins[1]
            self.own_trusted.update(name for name in names[:len(stand_ins)] if type(name) is str and name in stand_ins)

    def touch_last_arrays(self) -> int:
        """Add 1, in place, to every float array the last call received; how many were changed."""
        touched = 0
        for array in self.last_arrays:
            if array.dtype.kind == "f" and array.flags.writeable:
                array += 1
                touched += 1
        return touched


class Runtime(Responder):
    """The submission loaded as package ``package`` from ``root``."""

    def __init__(self, root: str, package: str = "submission"):
        super().__init__()
        self.root = os.path.realpath(root)
        self.package = package
        self.real_paths: dict[str, str] = {}
        if package not in sys.modules:
            module = types.ModuleType(package)
            module.__path__ = [self.root]  # relative imports (from .softmax import softmax) work
            module.__file__ = os.path.join(self.root, "__init__.py")
            sys.modules[package] = module
        if self.root not in sys.path:
            sys.path.insert(0, self.root)  # flat imports (from softmax import softmax) work too

    def real_path(self, filename: str) -> str:
        """``os.path.realpath(filename)``, remembered for the files of numpy and the standard library that every
        traceback passes through (a few hundred at most; past :data:`REAL_PATHS`, computed each time)."""
        path = self.real_paths.get(filename)
        if path is None:
            path = os.path.realpath(filename)
            if len(self.real_paths) < REAL_PATHS:
                self.real_paths[filename] = path
        return path

    def load(self, module: str):
        name = f"{self.package}.{module}"
        loaded = sys.modules.get(name)  # imported already (every request after the first): no import machinery
        if loaded is not None and not getattr(getattr(loaded, "__spec__", None), "_initializing", False):
            return loaded
        return importlib.import_module(name)

    def prepare(self, module: str) -> None:
        self.load(module)

    def lookup(self, module: str, name: str):
        loaded = self.load(module)
        if not hasattr(loaded, name):
            raise Unresolved(f"{module}.py has no {name!r}")
        return getattr(loaded, name)

    def describe_error(self, error: BaseException, exercise_module: str) -> dict:
        """What the trusted side is told about an exception the student's code raised."""
        where, sibling, facts = "", "", {}
        # innermost first; a SyntaxError's own file and line come before the frame that imported it. Only the
        # frame found in the submission has its source line read (numpy's frames are passed over by name)
        places: list[tuple[str, int | None, Any]] = [(frame.f_code.co_filename, lineno, frame)
                  for frame, lineno in reversed(list(traceback.walk_tb(error.__traceback__)))]
        if isinstance(error, SyntaxError) and isinstance(error.filename, str):
            places.insert(0, (error.filename, None, None))  # its message already names the line
        for filename, lineno, frame in places:
            if not isinstance(filename, str) or filename.startswith("<"):  # <frozen importlib._bootstrap>,
                continue  # <string>: not a file (and realpath would put it under the submission, our cwd)
            path = self.real_path(filename)
            if path.startswith(self.root + os.sep):
                relative = os.path.relpath(path, self.root)
                where = f"{relative}, line {lineno}" if lineno is not None else ""
                stem = os.path.splitext(os.path.basename(relative))[0]
                if exercise_module and stem != exercise_module:
                    sibling = stem
                if frame is not None and lineno is not None:
                    facts = failing_line.line_facts(frame, linecache.getline(filename, lineno, frame.f_globals).strip())
                break
        text = safe_text(error)
        if isinstance(error, OSError) and error.errno == 27:  # EFBIG: over RLIMIT_FSIZE
            text = "your code printed or wrote more than the output limit (1 MiB)"
        return {
            "type": safe_text(error, lambda e: type(e).__name__)[:100],
            "message": text[:MESSAGE_LIMIT] + ("..." if len(text) > MESSAGE_LIMIT else ""),
            "not_implemented": isinstance(error, NotImplementedError),
            "memory": isinstance(error, MemoryError),
            "where": where,
            "sibling": sibling,
            **facts,
        }
