"""The code of an exercise notebook, cut from the reference solution modules (``solutions/``).

One source of truth: the answer cells hold the same text ``exercises/`` is generated from,
with the kit's ``### BEGIN SOLUTION <todo>`` marker turned into nbgrader's plain
``### BEGIN SOLUTION`` (the TODO text stays, as a comment just above it, so the student
version keeps it). Marker pairing is validated by :func:`attnkit.release.stubs.make_stub`.

A notebook holds one exercise module, split by task (the definition named like the task),
plus the definitions it uses from sibling modules (``from .softmax import softmax``),
collected transitively and ordered so that every definition comes after what it uses.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from attnkit.release.stubs import BEGIN, END, MarkerError, make_stub
from grader import curriculum
from grader.mistakes.anchors import strip

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"

UNSUPPORTED_IMPORT = "{path}:{line}: only 'from .module import name' relative imports can be exported to a notebook"
MISSING_DEFINITION = "{path}: no top-level definition named {name!r} (imported by {user})"


class SourceError(ValueError):
    """A solution module that cannot be laid out as a notebook."""


@dataclass(frozen=True)
class Definition:
    """A top-level statement group of a solution module (a function or class and what precedes it)."""

    module: str
    name: str            # the defined name ("" for a group that defines nothing)
    code: str            # with nbgrader solution markers
    uses: tuple[str, ...]  # every name loaded inside it


@dataclass(frozen=True)
class Module:
    name: str
    docstring: str
    imports: tuple[str, ...]                      # plain import statements, as written
    relative: dict                                # imported name -> source module
    definitions: tuple[Definition, ...]

    def definition(self, name: str) -> Definition:
        for definition in self.definitions:
            if definition.name == name:
                return definition
        raise KeyError(name)


@dataclass(frozen=True)
class TaskCode:
    task: curriculum.Task
    code: str            # "" when the task adds no new definition (e.g. a memory bound on task 1's function)
    name: str            # the defined name, "" when code is ""


@dataclass(frozen=True)
class ExerciseCode:
    exercise: curriculum.Exercise
    docstring: str
    imports: tuple[str, ...]
    helpers: tuple[Definition, ...]   # from sibling modules, dependencies first
    tasks: tuple[TaskCode, ...]


def to_nbgrader(code: str) -> str:
    """The kit's markers as nbgrader's: the TODO text becomes a comment above ``### BEGIN SOLUTION``."""
    out = []
    for line in code.splitlines():
        begin = BEGIN.match(line)
        if begin:
            indent = begin.group("indent")
            out.append(f"{indent}# TODO: {begin.group('todo')}")
            out.append(f"{indent}### BEGIN SOLUTION")
        elif END.match(line):
            out.append(line[: len(line) - len(line.lstrip())] + "### END SOLUTION")
        else:
            out.append(line)
    return "\n".join(out)


def strip_solution_markers(code: str) -> str:
    """nbgrader-marked code without its marker lines (a filled-in answer, as a student would write it)."""
    return "\n".join(line for line in code.splitlines()
                     if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))


@lru_cache(maxsize=None)
def load(module: str, solutions: Path = SOLUTIONS) -> Module:
    """Parse ``solutions/<module>.py`` into its docstring, imports and top-level definitions."""
    path = solutions / f"{module}.py"
    text = strip(path.read_text(encoding="utf-8"))  # without the anchors of the classic mistakes
    try:
        make_stub(text, str(path))  # raises MarkerError when the markers do not pair up
    except MarkerError as error:
        raise SourceError(str(error)) from None
    tree = ast.parse(text, filename=str(path))
    lines = text.splitlines()
    imports, relative, body = [], {}, []
    for index, node in enumerate(tree.body):
        if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.level != 1 or not node.module or any(alias.asname or alias.name == "*" for alias in node.names):
                raise SourceError(UNSUPPORTED_IMPORT.format(path=path, line=node.lineno))
            relative.update({alias.name: node.module for alias in node.names})
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append("\n".join(lines[node.lineno - 1:node.end_lineno]))
        else:
            body.append(node)
    definitions, start = [], _first_line(body[0]) if body else 0
    for index, node in enumerate(body):
        stop = _first_line(body[index + 1]) - 1 if index + 1 < len(body) else len(lines)
        end = node.end_lineno
        while end < stop and (not lines[end].strip() or lines[end][:1].isspace()):
            end += 1  # indented lines after the last statement (an END SOLUTION marker) belong to it
        name = _defined_name(node)
        code = "\n".join(lines[start - 1:end]).strip("\n")
        uses = tuple(sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)}))
        definitions.append(Definition(module, name, to_nbgrader(code), uses))
        start = end + 1
    return Module(module, ast.get_docstring(tree) or "", tuple(imports), relative, tuple(definitions))


def _defined_name(node: ast.stmt) -> str:
    """The name a top-level statement defines (a function, a class, ``NAME = ...``), else ""."""
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return node.name
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else ""


def _first_line(node: ast.stmt) -> int:
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def helpers(module: str, solutions: Path = SOLUTIONS) -> tuple[Definition, ...]:
    """The sibling modules' definitions ``module`` uses, transitively, each after what it uses."""
    order: list[Definition] = []
    seen: set[tuple[str, str]] = set()

    def visit(source: str, name: str, user: str) -> None:
        if (source, name) in seen:
            return
        seen.add((source, name))
        parsed = load(source, solutions)
        try:
            definition = parsed.definition(name)
        except KeyError:
            path = solutions / f"{source}.py"
            raise SourceError(MISSING_DEFINITION.format(path=path, name=name, user=user)) from None
        own = {d.name for d in parsed.definitions}
        for used in definition.uses:
            if used in parsed.relative:
                visit(parsed.relative[used], used, f"{source}.{name}")
            elif used in own and used != name:
                visit(source, used, f"{source}.{name}")
        order.append(definition)

    for name, source in load(module, solutions).relative.items():
        visit(source, name, module)
    return tuple(order)


def exercise_code(exercise_id: str, solutions: Path = SOLUTIONS) -> ExerciseCode:
    """Everything a notebook needs from the solutions for one exercise."""
    exercise = curriculum.get(exercise_id)
    module = load(exercise.id, solutions)
    sibling = helpers(exercise.id, solutions)
    imports: list[str] = []
    for statement in list(module.imports) + [s for d in sibling for s in load(d.module, solutions).imports]:
        if statement not in imports:
            imports.append(statement)
    task_names = {task.name for task in exercise.tasks}
    by_name: dict[str, str] = {}
    pending: list[str] = []   # statements that define no task: they go with the next task's definition
    for definition in module.definitions:
        pending.append(definition.code)
        if definition.name in task_names:
            by_name[definition.name] = "\n\n\n".join(pending)
            pending = []
    tasks = [TaskCode(task, by_name.get(task.name, ""), task.name if task.name in by_name else "")
             for task in exercise.tasks]
    with_code = [index for index, part in enumerate(tasks) if part.code]
    if not with_code:
        raise SourceError(f"{solutions / exercise.id}.py defines none of the tasks of {exercise.id}")
    if pending:  # statements after the last task's definition go with it
        last = tasks[with_code[-1]]
        tasks[with_code[-1]] = TaskCode(last.task, "\n\n\n".join([last.code] + pending), last.name)
    return ExerciseCode(exercise, module.docstring, tuple(imports), sibling, tuple(tasks))
