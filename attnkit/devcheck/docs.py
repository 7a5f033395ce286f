"""The numbers the docs state about the kit (exercises, points, checks, questions, mistakes...) and the list of
the rules of a complete exercise (docs/adding-an-exercise.md), checked against the kit itself:
``python -m attnkit.devcheck --docs`` lists every stale one, ``--docs --write`` rewrites them. A test keeps them
equal, so a new exercise, question or rule cannot leave the docs behind.

Each :data:`CLAIMS` entry is a file, a pattern whose first group is the number, and the :data:`FACTS` it
states. A sample output's table rows (``PASS  softmax  11/11  6/6 checks``) are claims too: the points and
the number of checks of that exercise.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


def _checks(visibility: str | None = None) -> int:
    from grader import curriculum
    from grader.runner import discover

    return sum(visibility in (None, spec.visibility) for e in curriculum.ids() for spec in discover(e))


def _questions() -> int:
    from attnkit.quiz.bank import load_bank

    return len(load_bank().questions)


def _banks() -> int:
    from attnkit.quiz.bank import default_files

    return len(default_files())


def _mistakes() -> int:
    from grader.mistakes import all_mistakes

    return len(all_mistakes())


def _points() -> float:
    from grader import curriculum

    return curriculum.total_points()


def _exercises() -> int:
    from grader import curriculum

    return len(curriculum.ids())


FACTS = {"points": _points, "exercises": _exercises, "checks": lambda: _checks(), "hidden": lambda: _checks("hidden"),
         "questions": _questions, "banks": _banks, "mistakes": _mistakes}

CLAIMS = (
    ("README.md", r"\w+ \((\d+) points\), each split into numbered tasks", "points"),
    ("README.md", r"\n {6}total +\d+/(\d+) ", "points"),
    ("README.md", r"submissions graded; mean [\d.]+/(\d+)", "points"),
    ("README.md", r"Feedback names (\d+) classic mistakes", "mistakes"),
    ("README.md", r"\n(\d+) questions in `quizzes/\*\.yaml`", "questions"),
    ("README.md", r"\((\d+) banks: one per exercise and `concepts`\)", "banks"),
    ("docs/nbgrader.md", r"worth the check's points \((\d+) cells, ", "checks"),
    ("docs/nbgrader.md", r" cells, (\d+) points in all\)", "points"),
    ("docs/nbgrader.md", r"\nThe (\d+) hidden checks sit between", "hidden"),
)
TABLE_ROW = re.compile(r"^(?:PASS|FAIL|TODO)  (\w+) +\d+/(\d+) +\d+/(\d+) checks$", re.MULTILINE)
TABLE_FILES = ("README.md",)
RULES_FILE = "docs/adding-an-exercise.md"   # its list of the rules, between these two lines, is generated
RULES_BEGIN = "<!-- the rules of attnkit/devcheck/rules.py: python -m attnkit.devcheck --docs --write -->\n"
RULES_END = "<!-- end of the rules -->\n"


@dataclass(frozen=True)
class Stale:
    file: str
    line: int
    says: str
    kit: str
    what: str

    def __str__(self) -> str:
        if self.what == "rules":
            return f"{self.file}, line {self.line}: the list of the rules differs from attnkit/devcheck/rules.py"
        return f"{self.file}, line {self.line}: says {self.says} {self.what}, the kit has {self.kit}"


def rules_text() -> str:
    """The generated list of the rules: one bullet a rule, its id and its sentence."""
    from .rules import RULES

    return "".join(f"- **{rule.id}**: {rule.statement}\n" for rule in RULES)


def _stale_rules(root: Path) -> list[tuple[Stale, int, int]]:
    text = (root / RULES_FILE).read_text(encoding="utf-8")
    begin, end = text.find(RULES_BEGIN), text.find(RULES_END)
    if begin < 0 or end < begin:
        return [(Stale(RULES_FILE, 0, "nothing", "", "rules (its markers are missing)"), 0, 0)]
    start = begin + len(RULES_BEGIN)
    if text[start:end] == rules_text():
        return []
    return [(Stale(RULES_FILE, text.count("\n", 0, start) + 1, "an old list", rules_text(), "rules"), start, end)]


@lru_cache(maxsize=None)
def fact(name: str) -> str:
    return f"{FACTS[name]():g}"


def _exercise_facts(exercise: str) -> tuple[str, str] | None:
    from grader import curriculum
    from grader.runner import discover

    if exercise not in curriculum.ids():
        return None
    return f"{curriculum.get(exercise).points:g}", str(len(discover(exercise)))


def stale(root: Path) -> list[tuple[Stale, int, int]]:
    """Every number that differs from the kit, with its span in its file's text (for ``--write``); a claim
    whose pattern no longer matches is stale too (its span is empty)."""
    found = []
    for file, pattern, name in CLAIMS:
        text = (root / file).read_text(encoding="utf-8")
        matches = list(re.finditer(pattern, text))
        if not matches:
            found.append((Stale(file, 0, "nothing", fact(name), f"{name} (the pattern {pattern!r} no longer "
                                                                 "matches; update attnkit/devcheck/docs.py)"), 0, 0))
        for match in matches:
            if match.group(1) != fact(name):
                found.append((Stale(file, text.count("\n", 0, match.start(1)) + 1, match.group(1), fact(name), name),
                              match.start(1), match.end(1)))
    for file in TABLE_FILES:
        text = (root / file).read_text(encoding="utf-8")
        for match in TABLE_ROW.finditer(text):
            kit = _exercise_facts(match.group(1))
            line = text.count("\n", 0, match.start()) + 1
            if kit is None:
                found.append((Stale(file, line, match.group(1), "no such exercise", "exercise"), 0, 0))
                continue
            for group, value, what in ((2, kit[0], f"points of {match.group(1)}"),
                                       (3, kit[1], f"checks of {match.group(1)}")):
                if match.group(group) != value:
                    found.append((Stale(file, line, match.group(group), value, what),
                                  match.start(group), match.end(group)))
    return found + _stale_rules(root)


def write(root: Path, found: list[tuple[Stale, int, int]]) -> int:
    """Put the kit's numbers in place of the stale ones that can be (a span to replace); how many were."""
    by_file: dict[str, list[tuple[Stale, int, int]]] = {}
    for item in found:
        if item[2] > item[1] or item[0].what == "rules" and item[1] > 0:
            by_file.setdefault(item[0].file, []).append(item)
    for file, items in by_file.items():
        text = (root / file).read_text(encoding="utf-8")
        for claim, start, end in sorted(items, key=lambda item: -item[1]):
            text = text[:start] + claim.kit + text[end:]
        (root / file).write_text(text, encoding="utf-8")
    return sum(len(items) for items in by_file.values())
