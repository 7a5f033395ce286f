"""Every documented ``ValueError`` and every documented optional argument is exercised by a check (issue 21
item 7): all the checks run once against the reference (in process); each ``raise ValueError`` statement of a
public function or method of ``solutions/`` must be reached by a check's call, and each parameter with a default
must be given another value by some check's call. A new function, argument or ``Raises:`` clause without a check
fails here."""
import ast
import inspect
import sys
from pathlib import Path

import pytest

from grader import curriculum
from grader.runner import discover, execute
from grader.sandbox.host.inprocess import in_process
from grader.sandbox.inside import runtime
from tests.grader.graderkit import copy_solutions

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def documented_raises() -> set[tuple[str, int]]:
    """(module, line) of every ``raise ValueError`` inside a public function or method of the solutions."""
    found = set()
    for exercise in curriculum.exercises():
        tree = ast.parse((SOLUTIONS / f"{exercise.id}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_") or \
                    isinstance(node, ast.FunctionDef) and node.name == "__init__":
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Raise) and isinstance(inner.exc, ast.Call) and \
                            getattr(inner.exc.func, "id", "") == "ValueError":
                        found.add((exercise.id, inner.lineno))
    return found


def optional_arguments() -> set[tuple[str, str, str]]:
    """(module, function, parameter) of every parameter with a default of a public function or method."""
    found = set()
    for exercise in curriculum.exercises():
        module = __import__(f"solutions.{exercise.id}", fromlist=["_"])
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", "") != module.__name__:
                continue
            functions = [(name, value)] if inspect.isfunction(value) else \
                [(method, member) for method, member in vars(value).items()
                 if inspect.isfunction(member) and not method.startswith("_")] if inspect.isclass(value) else []
            for function, member in functions:
                for parameter in inspect.signature(member).parameters.values():
                    if parameter.default is not inspect.Parameter.empty:
                        found.add((exercise.id, function, parameter.name))
    return found


@pytest.fixture(scope="module")
def exercised(tmp_path_factory):
    """(raise statements reached, optional arguments given a non-default value) over every check's calls."""
    root = copy_solutions(tmp_path_factory.mktemp("contract")).resolve()
    reached, given = set(), set()
    signatures = {}

    def tracer(frame, event, argument):
        if event == "call":
            if not frame.f_code.co_filename.startswith(str(root)):
                return None
            frame.f_trace_lines = False
            return tracer
        if event == "exception" and argument[0] is ValueError:
            reached.add((Path(frame.f_code.co_filename).stem, frame.f_lineno))
        return tracer

    run = runtime.Responder.run

    def recording(self, op, target, args=(), kwargs=None, name=""):
        function = str(target.get("method") or target.get("name") or "")
        module = str(target.get("module") or "")
        if op in ("call", "measure") and module and function:
            key = (module, function)
            if key not in signatures:
                owner = __import__(f"solutions.{module}", fromlist=["_"])
                member = getattr(owner, function, None)
                signatures[key] = inspect.signature(member) if callable(member) else None
            if signatures[key] is not None:
                try:
                    bound = signatures[key].bind(*self.unwrap(tuple(args)),
                                                 **{k: self.unwrap(v) for k, v in (kwargs or {}).items()})
                except TypeError:
                    bound = None
                for parameter, value in (bound.arguments.items() if bound else ()):
                    default = signatures[key].parameters[parameter].default
                    if default is not inspect.Parameter.empty and not (value is default or (
                            type(value) is type(default) and value == default)):
                        given.add((module, function, parameter))
        return run(self, op, target, args, kwargs, name)

    runtime.Responder.run = recording
    sys.settrace(tracer)
    try:
        for exercise in curriculum.ids():
            impl = in_process(root, exercise)
            for spec in discover(exercise):
                execute(spec, impl)
    finally:
        sys.settrace(None)
        runtime.Responder.run = run
    return reached, given


def test_every_documented_value_error_is_raised_by_a_check(exercised):
    missing = sorted(documented_raises() - exercised[0])
    assert not missing, f"raise ValueError statements no check reaches (module, line): {missing}"


def test_every_optional_argument_is_given_another_value_by_a_check(exercised):
    missing = sorted(optional_arguments() - exercised[1])
    assert not missing, f"optional arguments no check sets (module, function, parameter): {missing}"
