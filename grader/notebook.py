"""Run one of the kit's checks inside a notebook kernel: the nbgrader front end.

Every autograder-test cell of a notebook written by ``attnkit nbgrader export`` is::

    from grader.notebook import run_check
    run_check("softmax", "test_softmax_matches_reference", globals())

The check is the very function ``attnkit check``, ``attnkit grade`` and ``pytest --impl`` run
(``grader/checks/check_<exercise>.py``; one source of truth). Its ``impl`` is built from the
notebook's globals, i.e. the functions and classes the student defined in the notebook:
``impl.<any exercise module>.<name>`` is ``namespace[name]``. Values cross the same wire
encoding as the sandbox (arrays are copied both ways, objects stay behind handles), so a
check sees the same plain values it sees from a sandboxed child.

Isolation: in nbgrader the kernel *is* the student's process, so the check runs in it, through the
transport named for that (``grader.sandbox.host.kernel``), without the kit's sandbox; nbgrader isolates
by kernel (one per notebook) and by its per-cell timeout. A failing check raises
:class:`NotebookCheckFailed` (an ``AssertionError``) carrying the check's message, diagnosis and
hint, so nbgrader gives the cell 0 points. A passing check prints one line and returns ``None`` (a
returned value would be read by nbgrader as partial credit; anything written to stderr would zero
the cell, so warnings raised while the check runs are swallowed).
"""
from __future__ import annotations

import os
import traceback
import warnings
from typing import Any, Mapping

from . import curriculum
from .results import CheckResult, Status
from .runner import NOT_IMPLEMENTED_MESSAGE, CheckSpec, discover, execute
from .sandbox import Implementation, Responder, Unresolved, kernel_implementation

UNKNOWN_CHECK = "exercise {exercise} has no check named {name!r}; its checks are: {known}"
NOT_DEFINED = ("{name} is not defined in this notebook: run the cell that defines it "
               "(and the cells above it) before this test cell")
UNKNOWN_MODULE = "the checks asked for module {module!r}, which is not an exercise of this course"
PASSED_LINE = "passed ({points:g}/{points:g} {unit}): {title}"
FAILED_HEADER = "failed (0/{points:g} {unit}): {title}"
NOT_IMPLEMENTED_HEADER = "not implemented yet (0/{points:g} {unit}): {title}"
GRADER_ERROR_HEADER = "the grader itself failed (0/{points:g} {unit}): {title}"
HELD_HEADER = "held (0/{points:g} {unit}) until the values are right: {title}"
HINT_LINE = "hint: {hint}"
MORE_HELP = "more help: attnkit hint {exercise} --task {task} (or the hints above this cell)"
CELL_LOCATION = "line {line} of a notebook cell"


class NotebookCheckFailed(AssertionError):
    """A check failed for the functions this notebook defines; nbgrader scores the cell 0."""

    def __init__(self, result: CheckResult):
        super().__init__(failure_text(result))
        self.result = result


class NotebookRuntime(Responder):
    """Answers the requests of :mod:`grader.sandbox.host.proxy` from a notebook's globals."""

    missing_object = "that object no longer exists in the notebook"

    def __init__(self, namespace: Mapping[str, Any]):
        super().__init__()
        self.namespace = namespace

    def prepare(self, module: str) -> None:  # the notebook's cells were run already: only the name is checked
        if module not in {exercise.id for exercise in curriculum.exercises()}:
            raise Unresolved(UNKNOWN_MODULE.format(module=module))

    def lookup(self, module: str, name: str):
        self.prepare(module)
        if name not in self.namespace:
            raise Unresolved(NOT_DEFINED.format(name=name))
        return self.namespace[name]

    @staticmethod
    def describe_error(error: BaseException, exercise_module: str = "") -> dict:
        """What the check is told about an exception the student's code raised."""
        where = ""
        for frame in reversed(traceback.extract_tb(error.__traceback__)):
            if _is_cell(frame.filename):
                where = CELL_LOCATION.format(line=frame.lineno)
                break
        return {"type": type(error).__name__, "message": str(error)[:2000], "where": where, "sibling": "",
                "not_implemented": isinstance(error, NotImplementedError), "memory": isinstance(error, MemoryError)}


def _is_cell(filename: str) -> bool:
    """Whether a traceback frame is code from a notebook cell (IPython's names for cells)."""
    return filename.startswith("<ipython-input") or f"{os.sep}ipykernel_" in filename or filename.startswith("<cell")


def implementation(namespace: Mapping[str, Any], exercise: str) -> Implementation:
    """The ``impl`` fixture for the functions a notebook defines."""
    return kernel_implementation(NotebookRuntime(namespace), exercise)


def find_check(exercise: str, name: str) -> CheckSpec:
    """The check ``name`` of ``exercise`` (``KeyError`` naming the known checks otherwise)."""
    specs = discover(curriculum.get(exercise).id)
    for spec in specs:
        if spec.name == name:
            return spec
    raise KeyError(UNKNOWN_CHECK.format(exercise=exercise, name=name, known=", ".join(s.name for s in specs)))


def check_result(exercise: str, name: str, namespace: Mapping[str, Any]) -> CheckResult:
    """Run one check against the notebook's definitions; every outcome is a :class:`CheckResult`."""
    spec = find_check(exercise, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return execute(spec, implementation(namespace, exercise))


def run_check(exercise: str, name: str, namespace: Mapping[str, Any]) -> None:
    """Run one check; print a line when it passes, raise :class:`NotebookCheckFailed` when not.

    Parameters
    ----------
    exercise : str
        The exercise id (``grader/curriculum.yaml``), e.g. ``"softmax"``.
    name : str
        The check function's name, e.g. ``"test_softmax_matches_reference"``.
    namespace : mapping
        The notebook's globals (pass ``globals()``); never modified.
    """
    result = check_result(exercise, name, namespace)
    if result.status != Status.PASSED:
        raise NotebookCheckFailed(result)
    print(PASSED_LINE.format(points=result.max_points, unit=_unit(result.max_points), title=result.title))


def _unit(points: float) -> str:
    return "point" if points == 1 else "points"


def failure_text(result: CheckResult) -> str:
    """What the student reads under a failed test cell: title, the check's message, hint, where to get help."""
    headers = {Status.NOT_IMPLEMENTED: NOT_IMPLEMENTED_HEADER, Status.GRADER_ERROR: GRADER_ERROR_HEADER,
               Status.HELD: HELD_HEADER}
    header = headers.get(result.status, FAILED_HEADER)
    lines = [header.format(points=result.max_points, unit=_unit(result.max_points), title=result.title)]
    message = result.message
    if result.status == Status.NOT_IMPLEMENTED and message.startswith(f"{NOT_IMPLEMENTED_MESSAGE}: "):
        message = message[len(NOT_IMPLEMENTED_MESSAGE) + 2:]  # the header says it already
    lines.extend("  " + line for line in message.splitlines())
    if result.hint:
        lines.append("  " + HINT_LINE.format(hint=result.hint))
    if result.status != Status.GRADER_ERROR:
        lines.append("  " + MORE_HELP.format(exercise=result.exercise, task=result.task))
    return "\n".join(lines)
