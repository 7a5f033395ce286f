"""What runs on the student's side: load the submission as a package and answer requests.

Used inside the sandboxed child (loaded by path by the zygote, before any student code) and,
for trusted implementations only, in-process (the benchmark floor and the project's tests).
Self-contained: the standard library, numpy and :mod:`wire`.
"""
from __future__ import annotations

import importlib
import os
import sys
import traceback
import types

try:  # inside the grader package
    from . import wire
except ImportError:  # loaded by path in the zygote, where the grader package is not importable
    import attnkit_sandbox_wire as wire  # type: ignore[no-redef]

MESSAGE_LIMIT = 2000


def safe_text(value, show=str) -> str:
    """``show(value)`` (str or repr) of something the student made, whose ``__str__`` may raise or never end."""
    try:
        text = show(value)
        return text if type(text) is str else "(unreadable)"
    except BaseException:  # noqa: B902 - a student's __str__ may raise anything, even BaseException
        return "(its message could not be read)"


class Runtime:
    """The submission loaded as package ``package`` from ``root``; an object table for handles."""

    def __init__(self, root: str, package: str = "submission"):
        self.root = os.path.realpath(root)
        self.package = package
        self.objects: dict[int, object] = {}
        self._next_id = 1
        if package not in sys.modules:
            module = types.ModuleType(package)
            module.__path__ = [self.root]  # relative imports (from .softmax import softmax) work
            module.__file__ = os.path.join(self.root, "__init__.py")
            sys.modules[package] = module
        if self.root not in sys.path:
            sys.path.insert(0, self.root)  # flat imports (from softmax import softmax) work too

    # -- objects -----------------------------------------------------------------
    def keep(self, value) -> int:
        handle = self._next_id
        self._next_id += 1
        self.objects[handle] = value
        return handle

    def resolve(self, target: dict):
        if "handle" in target:
            try:
                return self.objects[int(target["handle"])]
            except KeyError:
                raise LookupError("that object no longer exists in the student's process") from None
        module = self.load(str(target["module"]))
        name = str(target["name"])
        if not hasattr(module, name):
            raise LookupError(f"{target['module']}.py has no {name!r}")
        return getattr(module, name)

    def unwrap(self, value):
        """Arguments: trusted-side handles become the objects they stand for."""
        if isinstance(value, wire.Handle):
            return self.objects[value.id]
        if isinstance(value, tuple):
            return tuple(self.unwrap(v) for v in value)
        if isinstance(value, list):
            return [self.unwrap(v) for v in value]
        return value

    def load(self, module: str):
        return importlib.import_module(f"{self.package}.{module}")

    # -- requests ----------------------------------------------------------------
    def run(self, op: str, target: dict, args=(), kwargs=None, name: str = ""):
        """Perform one request; returns the raw Python result (exceptions propagate)."""
        if op == "import":
            self.load(str(target["module"]))
            return None
        subject = self.resolve(target)
        if op == "call":
            return subject(*self.unwrap(tuple(args)), **{k: self.unwrap(v) for k, v in (kwargs or {}).items()})
        if op == "getattr":
            return getattr(subject, name)
        if op == "len":
            return len(subject)
        if op == "measure":  # peak traced memory of one call, in bytes
            import tracemalloc

            arguments = self.unwrap(tuple(args))
            keywords = {k: self.unwrap(v) for k, v in (kwargs or {}).items()}
            tracemalloc.start()
            try:
                result = subject(*arguments, **keywords)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            return (result, peak)
        raise LookupError(f"unknown request {op!r}")

    def describe_error(self, error: BaseException, exercise_module: str) -> dict:
        """What the trusted side is told about an exception the student's code raised."""
        where, sibling = "", ""
        for frame in reversed(traceback.extract_tb(error.__traceback__)):
            if frame.filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>: not a file (and
                continue                        # realpath would put it under the submission, our cwd)
            path = os.path.realpath(frame.filename)
            if path.startswith(self.root + os.sep):
                relative = os.path.relpath(path, self.root)
                where = f"{relative}, line {frame.lineno}"
                stem = os.path.splitext(os.path.basename(relative))[0]
                if exercise_module and stem != exercise_module:
                    sibling = stem
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
        }
