"""``python -m attnkit.devcheck --mutants [ID ...]``: every classic mistake's mutant (its patch, or its ``mutant``,
applied to a copy of ``solutions/``) checked with ``attnkit check``; a mutant that scores full marks produces the
reference's own results on every input the checks give, so no check can tell it from the reference and the
mistake is never diagnosed. Slow (one ``attnkit check`` a mistake), so asked for by name; the mistakes'
end-to-end tests (``tests/grader/test_mistakes_end_to_end.py``) hold the same line in the suite.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .course import Problem

RULE = "mutants"


def undetected(root: Path, exercise_ids: tuple[str, ...]) -> list[Problem]:
    """A problem for every mistake of these exercises whose mutant ``attnkit check`` passes in full."""
    from grader.mistakes import of_exercise
    from grader.mistakes.anchors import apply

    found = []
    with tempfile.TemporaryDirectory(prefix="attnkit-mutants-") as folder:
        for exercise in exercise_ids:
            for mistake in of_exercise(exercise):
                impl = Path(folder) / mistake.id
                shutil.copytree(root / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
                path = impl / f"{exercise}.py"
                path.write_text(apply(path.read_text(encoding="utf-8"), mistake.mutant_patch, mistake.id),
                                encoding="utf-8")
                done = subprocess.run([sys.executable, "-m", "attnkit", "check", exercise, "--impl", str(impl)],
                                      capture_output=True, text=True, cwd=root, timeout=600)
                if done.returncode == 0:
                    found.append(Problem(RULE, exercise, f"grader/mistakes/{exercise}.py",
                                         f"{mistake.id}: its mutant scores full marks, so no check tells it from "
                                         "the reference"))
                print(f"  {mistake.id}: {'UNDETECTED' if done.returncode == 0 else 'caught'}", file=sys.stderr)
    return found
