"""The transport of nbgrader's test cells: the student's notebook kernel, which already runs the student's code.

In nbgrader the kernel *is* the student's process: the notebook's cells defined the functions in it before a test
cell runs a check there, so no child can isolate them and none is started. nbgrader isolates instead, by kernel
(one per notebook) and by its per-cell timeout. Values still cross the wire's encoding (arrays copied both ways,
objects behind handles), so a check sees the same plain values it sees from a sandboxed child. This is the only
transport that answers student code in the grader's own process; :mod:`.inprocess` is for trusted code only.
"""
from __future__ import annotations

from ..inside.runtime import Responder
from .inprocess import InProcessTransport
from .proxy import Implementation


class KernelTransport(InProcessTransport):
    """Requests answered by a notebook's definitions in its own kernel. A notebook's names are defined already,
    so an ``ImportError`` or ``SyntaxError`` while one is looked up is the code's own exception, not a module
    failing to import."""

    import_failures = False


def kernel_implementation(responder: Responder, exercise: str) -> Implementation:
    """The ``impl`` of a check run in a notebook's kernel; ``responder`` answers from the notebook's globals."""
    return Implementation(KernelTransport(responder, exercise))
