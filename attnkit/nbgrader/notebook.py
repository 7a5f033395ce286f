"""One exercise as an nbgrader source notebook (the instructor's version, with solutions).

Layout, top to bottom:

1. read-only Markdown: our summary of the exercise, the exercise module's docstring (with its
   reading: papers and books by title and year) and how the notebook is graded;
2. read-only code: the imports the solution module uses;
3. for an exercise that builds on earlier ones (attention uses softmax and apply_mask):
   one answer cell per earlier definition, where students paste their own version. They
   earn no points here (they are graded in their own notebook), but the checks run this
   exercise's functions with them, as ``attnkit check`` runs attention with the student's
   own softmax.py. The reference never appears in a student-visible cell;
4. per task: read-only Markdown (the definition's signature and summary, the curriculum's
   progressive hints), the answer cell, then one locked autograder-test cell per check of
   the task, worth the check's points. A test cell calls :func:`grader.notebook.run_check`
   (the checks exist once, in ``grader/checks``); a hidden check's call sits between
   nbgrader's hidden-test markers, so the student version shows only that a check runs there.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from grader import curriculum
from grader.runner import CheckSpec, discover

from . import cells
from .sources import ExerciseCode, exercise_code

GRADING_NOTE = """\
## How this notebook is graded

Write your code where it says `YOUR CODE HERE` (replace the `raise NotImplementedError()`).
Each read-only test cell below runs one of attnkit's checks on what you defined, for the
points it shows: these are the same checks `attnkit check` runs on `exercises/{module}.py`.
A failing check says what it called, what came back and what was expected, and often names
the classic mistake. Some cells only say that a hidden check runs there: it runs when your
notebook is graded. Before you submit, run everything from the top (Kernel, Restart & Run All)."""

EARLIER_NOTE = """\
## From earlier exercises

This exercise builds on {names}. Paste your own {version} into the cell{s} below (or write
{them} again). {They} earn{verb_s} no points in this notebook (graded in {its} own), but the checks
below run your code with {them}, so a mistake there shows up here too: fix it in both places."""


def notebook_name(exercise_id: str) -> str:
    return f"{exercise_id}.ipynb"


def build(exercise_id: str, solutions: Path | None = None, course: tuple[str, ...] | None = None) -> dict:
    """The source notebook (nbformat JSON as a dict) of one exercise of ``course`` (default: every exercise)."""
    code = exercise_code(exercise_id) if solutions is None else exercise_code(exercise_id, solutions)
    exercise = code.exercise
    items = [cells.readonly_markdown("intro", _intro(code, course or curriculum.ids())),
             cells.readonly_code("imports", "\n".join(sorted(code.imports)))]
    if code.helpers:
        items.append(cells.readonly_markdown("earlier", _earlier(code)))
        items.extend(_code_cell(f"earlier_{d.name}", d.code) for d in code.helpers)
    specs, hidden = discover(exercise.id), 0
    for part in code.tasks:
        items.append(cells.readonly_markdown(f"task_{part.task.number}", _task_text(exercise, part)))
        if part.code:
            items.append(_code_cell(f"answer_{part.name}", part.code))
        for spec in specs:
            if spec.task == part.task.number:
                hidden += spec.visibility == "hidden"
                items.append(_test_cell(spec, f"hidden_{hidden}" if spec.visibility == "hidden" else spec.name))
    return cells.notebook(items)


def _code_cell(grade_id: str, code: str) -> dict:
    """An answer cell where the solutions have a solution region; given (read-only) code where not."""
    return cells.answer(grade_id, code) if "### BEGIN SOLUTION" in code else cells.readonly_code(grade_id, code)


def points(notebook: dict) -> float:
    """The points of a notebook: the sum over its grade cells."""
    return sum(cell["metadata"]["nbgrader"]["points"] for cell in notebook["cells"]
               if cell["metadata"].get("nbgrader", {}).get("grade"))


def _intro(code: ExerciseCode, order: tuple[str, ...]) -> str:
    exercise = code.exercise
    return "\n\n".join([
        f"# {order.index(exercise.id) + 1}. {exercise.title}",
        f"*attnkit self-attention course: exercise `{exercise.id}`, {order.index(exercise.id) + 1} of {len(order)}.*",
        exercise.explanation.summary,
        "## What you build\n\n" + _rst_to_markdown(code.docstring),
        GRADING_NOTE.format(module=exercise.id),
    ])


def _earlier(code: ExerciseCode) -> str:
    helpers = code.helpers
    many = len(helpers) > 1
    named = [f"`{d.name}` (from `{notebook_name(d.module)}`)" for d in helpers]  # a module's name is its exercise's
    names = named[0] if not many else ", ".join(named[:-1]) + " and " + named[-1]
    return EARLIER_NOTE.format(names=names, version="versions" if many else "version", s="s" if many else "",
                               them="them" if many else "it", They="They" if many else "It",
                               verb_s="" if many else "s", its="their" if many else "its")


def _task_text(exercise: curriculum.Exercise, part) -> str:
    task = part.task
    lines = [f"## Task {task.number}: `{task.name}`", ""]
    if part.code:
        lines.append(_summary(part.code, part.name))
    else:
        function, _, aspect = task.name.partition(" ")
        lines.append(f"No new code: the checks of this task test your `{function}` again"
                     + (f", for its {aspect}." if aspect else "."))
    lines += ["", "Hints, from a nudge to nearly a recipe: open one at a time, only when stuck."]
    for number, hint in enumerate(task.hints, start=1):  # each in its own fold, so opening one shows only it
        lines += ["", f"<details><summary>Hint {number}</summary>", "", hint, "", "</details>"]
    return "\n".join(lines)


def _summary(code: str, name: str) -> str:
    """``signature``: the first paragraph of the definition's docstring."""
    for node in ast.parse(code).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            doc = (ast.get_docstring(node) or "").split("\n\n")[0].replace("\n", " ")
            if isinstance(node, ast.ClassDef):
                return f"Write the class `{name}`: {_rst_to_markdown(doc)}"
            return f"Write `{name}({ast.unparse(node.args)})`: {_rst_to_markdown(doc)}"
    raise ValueError(f"no definition named {name}")


def _rst_to_markdown(text: str) -> str:
    """numpydoc's ``literal`` and :func:`name` roles as Markdown code."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _test_cell(spec: CheckSpec, grade_id: str) -> dict:
    """One check as a locked test cell; a hidden one's grade id names no check (the release shows it)."""
    task = f"task {spec.task}, {spec.points:g} point{'s' if spec.points != 1 else ''}"
    call = (f"from grader.notebook import run_check\n"
            f"run_check({spec.exercise!r}, {spec.name!r}, globals())")
    if spec.visibility == "hidden":
        source = (f"# A hidden check ({task}) runs in this cell when your notebook is graded.\n"
                  f"### BEGIN HIDDEN TESTS\n# {spec.title}\n{call}\n### END HIDDEN TESTS")
    else:
        source = f"# Check ({task}): {spec.title}\n{call}"
    return cells.tests(grade_id, source, spec.points)
