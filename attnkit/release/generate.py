"""The files the student release gets instead of the trusted ones: texts, generated at build time.

* ``grader/reference.py``: ``reference()`` answers from the recording (``grader/replay.py``);
* ``grader/mistakes/<module>.py``: the same Mistake constants, and functions replaying recorded outputs;
* ``pyproject.toml`` (installs attnkit, grader and quizzes; no solutions) and ``README.md``.
"""
from __future__ import annotations

from pathlib import Path
from string import Template

from grader.compare import Mistake

README_TEMPLATE = Path(__file__).with_name("student_readme.md")

REFERENCE_MODULE = '''"""The reference as the checks see it in the student release: recorded values, replayed.

The reference solutions are not part of the student release. ``attnkit release`` recorded
what they return to every public check (``grader/recorded/``); ``reference()`` answers the
same calls from that recording (see ``grader/replay.py``).
"""
from __future__ import annotations

from .replay import installed


def reference():
    """A namespace with one attribute per exercise module: ``reference().softmax.softmax(x)``."""
    return installed().reference()
'''

MISTAKES_INIT = '''"""Classic mistakes, one module per exercise, for diagnosing a wrong answer (student release).

Each module has the kit's :class:`grader.compare.Mistake` constants; its functions answer with
the outputs ``attnkit release`` recorded from the real mistake variants (``grader/replay.py``).
"""
from __future__ import annotations

MODULES = $modules


def all_mistakes() -> dict:
    """Every Mistake constant of every module, by id."""
    import importlib

    from ..compare import Mistake

    found = {}
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        for value in vars(module).values():
            if isinstance(value, Mistake):
                found[value.id] = value
    return found
'''

MISTAKES_MODULE = '''"""$title

Student release: the functions below answer with recorded outputs (see grader/replay.py).
"""
from __future__ import annotations

from ..compare import Mistake
from ..replay import installed

$constants

$functions
'''

PYPROJECT = '''[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "attnkit"
version = "$version"
description = "attnkit for students: self-attention exercises with numpy, checked in a sandbox; quizzes"
readme = "README.md"
requires-python = "$requires_python"
dependencies = [
$dependencies
]

[project.scripts]
attnkit = "attnkit.cli:main"

[project.entry-points.pytest11]
attnkit = "grader.pytest_plugin"

[tool.setuptools.packages.find]
include = ["attnkit*", "grader*", "quizzes*"]

[tool.setuptools.package-data]
grader = ["*.yaml", "*.json", "recorded/*.json", "recorded/*.npz"]
quizzes = ["*.yaml", "*.json"]
'''


def mistakes_module(title: str, module: str, constants: dict[str, Mistake], functions: list[str]) -> str:
    """Source of a replayed ``grader/mistakes/<module>.py``."""
    shown = "\n".join(f"{name} = Mistake(\n    {m.id!r},\n    {m.looks_like!r},\n    {m.hint!r},\n)"
                      for name, m in constants.items())
    calls = "\n".join(f"{name} = installed().mistake_function({module!r}, {name!r})" for name in functions)
    return Template(MISTAKES_MODULE).substitute(title=title, constants=shown, functions=calls)


def mistakes_init(modules: list[str]) -> str:
    return Template(MISTAKES_INIT).substitute(modules=repr(tuple(modules)))


def pyproject(version: str, requires_python: str, dependencies: list[str]) -> str:
    listed = "\n".join(f"    {d!r}," for d in dependencies).replace("'", '"')
    return Template(PYPROJECT).substitute(version=version, requires_python=requires_python, dependencies=listed)


def readme(exercises: list[tuple[str, str, float, int]], hidden_checks: int, hidden_points: float,
           verbs: tuple[str, ...]) -> str:
    """The students' README: ``exercises`` is (id, title, points, number of public checks) in order."""
    table = "\n".join(f"| `{e}` | {title} | {points:g} |" for e, title, points, _ in exercises)
    graded = (f"Your instructor's grader also runs {hidden_checks} more checks ({hidden_points:g} points) on edge "
              "cases the docstrings describe, so read them carefully." if hidden_checks else "")
    attention = next(((points, count) for e, _, points, count in exercises if e == "attention"), (0, 0))
    watch = ("attnkit watch                 # re-run the checks of what you change, each time you save\n"
             if "watch" in verbs else "")
    return Template(README_TEMPLATE.read_text(encoding="utf-8")).substitute(
        table=table, public_checks=sum(e[3] for e in exercises), public_points=f"{sum(e[2] for e in exercises):g}",
        graded=graded, watch=watch, attention_points=f"{attention[0]:g}", attention_checks=attention[1])
