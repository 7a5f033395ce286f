"""A transport that runs a TRUSTED implementation in this process (no isolation).

For the reference solutions and the project's own tests, and as the floor the isolation
overhead is measured against. Never point it at student code: ``attnkit check`` and
``attnkit grade`` always use :mod:`grader.sandbox.host.transport`; nbgrader's test cells, where the
student's code already runs in the notebook's kernel, use the transport named for that
(:mod:`grader.sandbox.host.kernel`).
"""
from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from ...interfaces import NO_REPORT, CallReport
from .. import wire
from ..inside.runtime import Responder, Runtime, Unresolved
from . import errors, fromsource
from .proxy import Implementation, called, judged, student_error

_counter = itertools.count()


class InProcessTransport:
    """Requests answered in this process by a :class:`Responder`: values copied as on the wire.

    ``import_failures``: an ``ImportError`` or ``SyntaxError`` while a module is looked up is the module
    failing to import (a directory of modules, :class:`Runtime`).
    """

    dead = False  # trusted code in this process: never needs replacing
    broken = None  # a module that fails to import fails each request that needs it
    import_failures = True

    def __init__(self, runtime: Responder, exercise: str = ""):
        self.exercise = exercise
        self.runtime = runtime
        self.report = NO_REPORT  # as in ChildTransport: what the last request changed in place
        self.siblings_called: set[str] = set()  # the student's own siblings answer here: never the reference

    def request(self, op: str, target: dict, args: tuple = (), kwargs: dict | None = None,
                name: str = "", call: object = "") -> Any:
        self.report = NO_REPORT
        args, kwargs = as_sent(tuple(args)), dict(as_sent(list((kwargs or {}).items())))
        try:
            result = self.runtime.run(op, target, args, kwargs, name)
            self.report = CallReport(tuple(self.runtime.last_mutated))
        except Unresolved as error:  # a name the check asked for is missing: not the code's own LookupError
            raise errors.StudentRaised(f"{call}: {error}", call=call, exercise=self.exercise) from None
        except Exception as error:  # the implementation's own failure, reported like the child does
            module = target.get("module", "")
            if self.import_failures and isinstance(error, (ImportError, SyntaxError)) and (op == "import" or module):
                raise errors.StudentImportFailed(f"could not import your {module}.py: {type(error).__name__}: {error}",
                                                 call=call, exercise=self.exercise) from None
            raise student_error(self.runtime.describe_error(error, self.exercise), call=call, exercise=self.exercise,
                                function=called(target)) from None
        return as_received(result, self.runtime, call=call, exercise=self.exercise)

    def own_output(self) -> tuple[str, int]:
        """Nothing is captured: the code prints where this process prints."""
        return "", 0

    def close(self) -> None:
        """Nothing to release: the code runs in this process (or is the notebook's)."""


def as_sent(value: Any) -> Any:
    """Arguments as the student's side of the wire receives them: fresh copies of every array."""
    arrays: list = []
    tree = wire.encode(value, arrays)
    return wire.decode(tree, [array.copy() for array in arrays])


def as_received(result: Any, runtime: Responder, *, call: object, exercise: str) -> Any:
    """``result`` as the trusted side receives it from a child: encoded, arrays copied, objects as handles."""
    arrays: list = []
    try:
        tree = wire.encode(result, arrays, handles=runtime.keep)
    except TypeError as error:
        raise errors.StudentBadValue(f"{call} returned a value that cannot be checked: {error}",
                                     call=call, exercise=exercise) from None
    return judged(wire.decode(tree, [a.copy() for a in arrays]), call=call, exercise=exercise)


def in_process(root: str | Path, exercise: str = "") -> Implementation:
    """An ``impl`` for a trusted implementation directory (e.g. ``solutions/``)."""
    return Implementation(trusted_transport(root, exercise))


def trusted_transport(root: str | Path, exercise: str = "") -> InProcessTransport:
    """The transport of :func:`in_process`, for a front end that wraps requests itself (the release's replay)."""
    return InProcessTransport(trusted_runtime(root), exercise)


def trusted_runtime(root: str | Path) -> Runtime:
    """The modules of ``root`` loaded as a package of their own in this process, compiled from their source."""
    fromsource.install()
    return Runtime(str(root), package=f"{fromsource.PREFIX}{next(_counter)}")
