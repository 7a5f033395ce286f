"""Make the student stubs (``exercises/``) from the reference solutions (``solutions/``).

One source of truth: every solution body sits between two marker lines::

    ### BEGIN SOLUTION implement softmax: what the student has to do
    ...reference code...
    ### END SOLUTION

and the stub keeps everything else (imports, signatures, numpydoc docstrings) verbatim,
replacing the region with a visible TODO and ``raise NotImplementedError("<the text>")``.
The nbgrader exporter uses the same markers.

``python -m attnkit.release.stubs --write`` refreshes ``exercises/``;
``python -m attnkit.release.stubs --check`` exits 1 when the checked-in copy has drifted.
"""
from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path

from grader import atomic
from grader.mistakes.anchors import MARKER as ANCHOR

BEGIN = re.compile(r"^(?P<indent>\s*)### BEGIN SOLUTION(?:\s+(?P<todo>.*\S))?\s*$")
END = re.compile(r"^\s*### END SOLUTION\s*$")

REPO = Path(__file__).resolve().parents[2]

PACKAGE_DOC = '''"""Your attnkit exercises: implement every function marked TODO.

Run ``attnkit check`` after each change; ``attnkit hint EXERCISE`` when stuck.
{order}
"""
'''


class MarkerError(ValueError):
    """A solution file whose markers do not pair up."""


def make_stub(source: str, filename: str = "<solution>") -> str:
    """Return the student version of one solution module's text.

    Raises
    ------
    MarkerError
        If a BEGIN has no END (or the reverse), or a BEGIN line carries no TODO text.
    """
    out: list[str] = []
    inside = False
    for lineno, line in enumerate(source.splitlines(keepends=True), start=1):
        if ANCHOR.match(line):  # a place a classic mistake edits (grader.mistakes.anchors): the reference's own
            continue
        begin = BEGIN.match(line)
        if begin:
            if inside:
                raise MarkerError(f"{filename}:{lineno}: BEGIN SOLUTION inside another solution region")
            todo = begin.group("todo")
            if not todo:
                raise MarkerError(f"{filename}:{lineno}: BEGIN SOLUTION needs the TODO text after it")
            indent = begin.group("indent")
            out.append(f"{indent}# TODO: {todo}\n")
            out.append(f"{indent}raise NotImplementedError({todo!r})\n")
            inside = True
        elif END.match(line):
            if not inside:
                raise MarkerError(f"{filename}:{lineno}: END SOLUTION without a BEGIN")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise MarkerError(f"{filename}: a BEGIN SOLUTION region is never closed")
    return "".join(out)


def strip_markers(source: str) -> str:
    """The solution text without its marker lines (what a reader of the reference sees)."""
    return "".join(line for line in source.splitlines(keepends=True)
                   if not (BEGIN.match(line) or END.match(line) or ANCHOR.match(line)))


def package_doc(exercises: tuple[str, ...]) -> str:
    """The text of ``exercises/__init__.py``: the learning path's order."""
    order = textwrap.fill(f"The order of the learning path is {', '.join(exercises)}.", width=90,
                          break_on_hyphens=False, break_long_words=False)
    return PACKAGE_DOC.format(order=order)


def generate(solutions_dir: Path, exercises: tuple[str, ...] | None = None) -> dict[str, str]:
    """File name -> text of every file ``exercises/`` should hold.

    ``exercises``: only the modules of these exercises (a course's subset); by default every
    solution module, the curriculum's and those not (yet) in it.
    """
    from grader import curriculum

    chosen = curriculum.ids() if exercises is None else exercises
    modules = None if exercises is None else set(exercises)  # a module's name is its exercise's id
    files = {"__init__.py": package_doc(chosen)}
    for path in sorted(solutions_dir.glob("*.py")):
        if path.name != "__init__.py" and (modules is None or path.stem in modules):
            files[path.name] = make_stub(path.read_text(encoding="utf-8"), str(path))
    return files


def drift(solutions_dir: Path, exercises_dir: Path) -> list[str]:
    """Names of files in ``exercises_dir`` that differ from what :func:`generate` makes."""
    expected = generate(solutions_dir)
    present = {p.name for p in exercises_dir.glob("*.py")}
    changed = [name for name, text in expected.items()
               if not (exercises_dir / name).is_file() or (exercises_dir / name).read_text(encoding="utf-8") != text]
    return sorted(set(changed) | (present - set(expected)))


def write(solutions_dir: Path, exercises_dir: Path) -> list[str]:
    """Write the stubs into ``exercises_dir``; returns the names written."""
    exercises_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in generate(solutions_dir).items():
        atomic.write_text(exercises_dir / name, text)
        written.append(name)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m attnkit.release.stubs", description=__doc__.splitlines()[0])
    parser.add_argument("--solutions", type=Path, default=REPO / "solutions")
    parser.add_argument("--exercises", type=Path, default=REPO / "exercises")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate the exercises")
    mode.add_argument("--check", action="store_true", help="exit 1 if the exercises have drifted")
    args = parser.parse_args(argv)
    try:
        if args.write:
            print("wrote", ", ".join(write(args.solutions, args.exercises)))
            return 0
        stale = drift(args.solutions, args.exercises)
    except MarkerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if stale:
        print("exercises/ has drifted from solutions/: " + ", ".join(stale)
              + "\nrun: python -m attnkit.release.stubs --write", file=sys.stderr)
        return 1
    print("exercises/ matches solutions/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
