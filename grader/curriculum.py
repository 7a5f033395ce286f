"""The learning path (``curriculum.yaml``) as dataclasses: exercises in order, tasks, hints.

The only list of exercises: every other list (quiz topics, the mistake registry, the stubs'
package doc, the nbgrader notebooks, the release, the Gradescope bundle) is derived from it.
The file is checked against ``curriculum.schema.json`` at load (one line naming the file and the
entry when it breaks it). An exercise's id is also its module's name; its points are its checks'
(read from ``checks/check_<id>.py`` without importing it; a built copy of the curriculum, for the
release or Gradescope, records them).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PATH = Path(__file__).with_name("curriculum.yaml")
SCHEMA = Path(__file__).with_name("curriculum.schema.json")
CHECKS = Path(__file__).with_name("checks")
FORMAT_VERSION = 1


class CourseFilesError(ValueError):
    """A file of the course that cannot be used (the message names the file and what to do): ``attnkit`` prints it as
    ``attnkit VERB: message``, no traceback, exit status 2."""


class CurriculumError(CourseFilesError):
    """A curriculum file that breaks ``curriculum.schema.json`` (the message names the file and the entry)."""


@dataclass(frozen=True)
class Task:
    number: int
    name: str
    hints: tuple[str, ...]


@dataclass(frozen=True)
class Quote:
    file: str
    section: str
    text: str


@dataclass(frozen=True)
class Explanation:
    """What the exercise's nbgrader notebook explains before the code: a summary and verbatim quotes."""

    summary: str
    quotes: tuple[Quote, ...]


@dataclass(frozen=True)
class Exercise:
    id: str                  # also the name of its module: solutions/<id>.py, exercises/<id>.py
    title: str
    depends_on: tuple[str, ...]
    source: str              # the seeds it comes from, for maintainers (empty in the student release)
    explanation: Explanation
    tasks: tuple[Task, ...]
    recorded_points: float | None = None   # a built copy's record of its checks' points (None in the source)

    @property
    def points(self) -> float:
        """The sum of its checks' points (as a built copy recorded them, or read from its checks file)."""
        return checks_points(self.id) if self.recorded_points is None else self.recorded_points

    def task(self, number: int) -> Task:
        for task in self.tasks:
            if task.number == number:
                return task
        raise KeyError(f"exercise {self.id} has no task {number}")


@lru_cache(maxsize=1)
def exercises() -> tuple[Exercise, ...]:
    """Every exercise, in learning-path order (:class:`CurriculumError` for a file that breaks the schema)."""
    return parse(load_data(PATH), PATH)


def load_data(path: Path) -> dict:
    """The YAML of a curriculum file (through its parsed copy in a built kit: ``grader.parsed``), checked against the
    schema."""
    from . import schema_subset
    from .parsed import NotYaml, load

    def check(data) -> None:
        found = schema_subset.first_error(data, json.loads(SCHEMA.read_text(encoding="utf-8")))
        if found:
            where, what = found
            raise CurriculumError(f"{path}: {_place(data, where)}{what} (see {SCHEMA.name})")

    try:  # checked once per content of the file, the schema and its checker (grader.parse_cache)
        return load(path, check, checked_by=(SCHEMA, Path(schema_subset.__file__)))
    except NotYaml as error:
        raise CurriculumError(f"{path}: not valid YAML: {error}") from None


def _place(data, where: tuple) -> str:
    """``exercise 3 (attention), tasks[0]: `` for a place in the data (nothing for the top level)."""
    if len(where) < 2 or where[0] != "exercises":
        return f"{where[0]}: " if where else ""
    entry = data["exercises"][where[1]]
    name = entry.get("id") if isinstance(entry, dict) else None
    rest = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in where[2:]).lstrip(".")
    named = f" ({name})" if isinstance(name, str) else ""
    return f"exercise {where[1] + 1}{named}" + (f", {rest}" if rest else "") + ": "


def parse(data: dict, path: Path = PATH) -> tuple[Exercise, ...]:
    found = tuple(
        Exercise(
            id=entry["id"], title=entry["title"], depends_on=tuple(entry["depends_on"]), source=entry.get("source", ""),
            explanation=Explanation(entry["explanation"]["summary"].strip(),
                                    tuple(Quote(**quote) for quote in entry["explanation"].get("quotes", ()))),
            tasks=tuple(Task(t["task"], t["name"], tuple(t["hints"])) for t in entry["tasks"]),
            recorded_points=entry.get("points"),
        )
        for entry in data["exercises"]
    )
    seen: set[str] = set()
    for number, exercise in enumerate(found, start=1):
        if exercise.id in seen:
            raise CurriculumError(f"{path}: exercise {number} ({exercise.id}): the id is used twice")
        unknown = [name for name in exercise.depends_on if name not in seen]
        if unknown:
            raise CurriculumError(f"{path}: exercise {number} ({exercise.id}): depends_on names "
                                  f"{', '.join(unknown)}, which is no earlier exercise")
        seen.add(exercise.id)
    return found


# A check's decorator, and the test_ function it marks (other decorators may sit between them).
CHECK = re.compile(r"^@check\(\s*(?:points\s*=\s*)?([0-9.]+)[^\n]*\n(?:@[^\n]*\n)*def test_\w+", re.MULTILINE)


@lru_cache(maxsize=None)
def checks_points(exercise_id: str) -> float:
    """The sum of the ``@check(points=<number>, ...)`` of ``checks/check_<id>.py``'s ``test_`` functions, read from
    its text (importing or even parsing every check module would slow ``attnkit check``); 0 without a checks
    file. The ``points`` rule of ``python -m attnkit.devcheck`` compares it with the imported checks'."""
    path = CHECKS / f"check_{exercise_id}.py"
    if not path.is_file():
        return 0
    total = float(sum(float(points) for points in CHECK.findall(path.read_text(encoding="utf-8"))))
    return int(total) if total.is_integer() else total


def ids() -> tuple[str, ...]:
    """Exercise ids in learning-path order."""
    return tuple(exercise.id for exercise in exercises())


def total_points(exercise_ids=None) -> float:
    """The points of a course: the sum over its exercises (every exercise by default)."""
    chosen = ids() if exercise_ids is None else exercise_ids
    return sum(get(exercise_id).points for exercise_id in chosen)


def get(exercise_id: str) -> Exercise:
    """The exercise with this id (``KeyError`` naming the known ids otherwise)."""
    for exercise in exercises():
        if exercise.id == exercise_id:
            return exercise
    raise KeyError(f"unknown exercise {exercise_id!r}; known: {', '.join(ids())}")


def users_of(exercise_ids) -> tuple[str, ...]:
    """The given exercises and every exercise that (transitively) depends on one, in path order."""
    found = set(exercise_ids)
    grew = True
    while grew:
        grew = False
        for exercise in exercises():
            if exercise.id not in found and found & set(exercise.depends_on):
                found.add(exercise.id)
                grew = True
    return tuple(e for e in ids() if e in found)


def prerequisites(exercise_id: str) -> tuple[str, ...]:
    """The exercises ``exercise_id`` builds on, directly or through another (its ``depends_on``, followed
    transitively: an exercise built on one that builds on a third has both), in path order; never itself."""
    found: set[str] = set()
    todo = list(get(exercise_id).depends_on)
    while todo:
        needed = todo.pop()
        if needed not in found and needed != exercise_id:
            found.add(needed)
            todo.extend(get(needed).depends_on)
    return tuple(e for e in ids() if e in found)


def select(spec: str | None = None) -> tuple[str, ...]:
    """The exercises of a course, in learning-path order.

    ``spec`` is ``None`` (every exercise), a comma-separated list of ids (``"softmax,masking"``),
    or the path of a course file: a YAML list of ids, or a mapping with an ``exercises`` list.
    Raises ``ValueError`` with a message naming the unknown ids, the file or what to write.
    """
    if spec is None:
        return ids()
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        chosen = _course_file(path)
    else:
        chosen = [part.strip() for part in spec.split(",") if part.strip()]
    if not chosen:
        raise ValueError(f"no exercise named in {spec!r}; choose from: {', '.join(ids())}")
    unknown = [name for name in chosen if name not in ids()]
    if unknown:
        raise ValueError(f"unknown exercise(s) {', '.join(map(repr, unknown))}; known: {', '.join(ids())}")
    return tuple(e for e in ids() if e in set(chosen))


def missing_dependencies(exercise_ids) -> list[str]:
    """``"multihead builds on attention"`` for every exercise whose ``depends_on`` is not among ``exercise_ids``."""
    return [f"{name} builds on {needed}" for name in exercise_ids
            for needed in get(name).depends_on if needed not in exercise_ids]


SUBSET_HEADER = ("# The exercises of this course: the attnkit learning path, or the subset chosen with --exercises.\n"
                 "# Every front end (check, grade, hint, quiz) reads its exercises from here.\n")


def subset_text(exercise_ids, for_students: bool = False) -> str:
    """The text of a ``curriculum.yaml`` holding only these exercises' entries (what a course's subset ships);
    ``for_students``: without the maintainers' ``source`` and ``quotes`` (the seeds students never have)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value: str):  # multi-line text (explanations) as a block, like the hand-written file
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)

    Dumper.add_representer(str, text)
    data = yaml.safe_load(PATH.read_text(encoding="utf-8"))
    data["exercises"] = [entry for entry in data["exercises"] if entry["id"] in set(exercise_ids)]
    for entry in data["exercises"]:
        entry["points"] = get(entry["id"]).points  # recorded: a release's checks hold only the public ones
        if for_students:
            entry.pop("source", None)
            entry["explanation"].pop("quotes", None)
    return SUBSET_HEADER + yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)


def _course_file(path: Path) -> list[str]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"cannot read the course file {path}: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise ValueError(f"{path} is not valid YAML: {error}") from None
    except RecursionError:  # lists or mappings nested thousands deep
        raise ValueError(f"{path} nests its lists or mappings too deeply; a course file is a list of exercise "
                         "ids, or a mapping with an 'exercises' list") from None
    if isinstance(data, dict):
        data = data.get("exercises")
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        raise ValueError(f"{path}: expected a list of exercise ids (or 'exercises: [...]'); "
                         f"choose from: {', '.join(ids())}")
    return data
