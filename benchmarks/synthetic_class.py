"""A synthetic class of submissions: correct work, classic mistakes, untouched stubs and a few hostile ones.

Every submission is a folder ``<student>/exercises/<module>.py``. The mix is fixed by the
seed: 57% the reference solutions, 30% one classic mistake each (a mistake's
mutant, grader/mistakes/), 10% the untouched stubs, 3% hostile (an endless loop in one
function, ``os._exit`` in a call, an attempt to import the reference).
"""
from __future__ import annotations

import random
import shutil
from pathlib import Path

from grader.mistakes.model import apply

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"

HOSTILE = {
    "endless_loop": ("positional", "def sinusoidal_encoding(seq_len, d_model):\n    while True:\n        pass\n"),
    "os_exit": ("masking", "import os\n\n\ndef causal_mask(n):\n    os._exit(3)\n"),
    "steal_reference": ("attention", "from solutions.attention import *  # noqa\n"),
}


def _patches() -> list[tuple[str, tuple]]:
    """(solution module, replacements) of every classic mistake's mutant, from ``grader.mistakes``."""
    from grader import mistakes

    return [(mistakes.module_of(m.id), m.mutant_patch) for m in mistakes.all_mistakes().values() if m.mutant_patch]


def _copy(source: Path, target: Path) -> Path:
    modules = target / "exercises"
    shutil.copytree(source, modules, ignore=shutil.ignore_patterns("__pycache__"))
    return modules


def make_class(folder: Path, size: int, seed: int = 0) -> dict[str, int]:
    """Write ``size`` submissions into ``folder`` (created); returns how many of each kind."""
    rng = random.Random(seed)
    patches = _patches()
    folder.mkdir(parents=True, exist_ok=True)
    counts = {"reference": 0, "mistake": 0, "stubs": 0, "hostile": 0}
    for index in range(size):
        student = folder / f"student{index:04d}"
        roll = rng.random()
        if roll < 0.57:
            _copy(SOLUTIONS, student)
            counts["reference"] += 1
        elif roll < 0.87:
            module, replacements = patches[rng.randrange(len(patches))]
            path = _copy(SOLUTIONS, student) / f"{module}.py"
            path.write_text(apply(path.read_text(), replacements, str(path)))
            counts["mistake"] += 1
        elif roll < 0.97:
            _copy(EXERCISES, student)
            counts["stubs"] += 1
        else:
            module, source = HOSTILE[sorted(HOSTILE)[rng.randrange(len(HOSTILE))]]
            (_copy(SOLUTIONS, student) / f"{module}.py").write_text(source)
            counts["hostile"] += 1
    return counts
