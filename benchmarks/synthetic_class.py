"""A synthetic class of submissions: correct work, classic mistakes, untouched stubs and a few hostile ones.

Every submission is a folder ``<student>/exercises/<module>.py``. The kinds are drawn by a fixed seed
in the shares of a named mix (:data:`MIXES`): ``realistic`` is 57% the reference solutions, 30% one
classic mistake each (a mistake's mutant, grader/mistakes/), 10% the untouched stubs, 3% hostile (an
endless loop in one function, ``os._exit`` in a call, an attempt to import the reference);
``half_failing`` is half the reference and half one classic mistake each; ``all_correct`` is the
reference only.
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


KINDS = ("reference", "mistake", "stubs", "hostile")
MIXES = {  # shares of KINDS, in that order
    "realistic": (0.57, 0.30, 0.10, 0.03),
    "half_failing": (0.5, 0.5, 0.0, 0.0),
    "all_correct": (1.0, 0.0, 0.0, 0.0),
}


def _patches() -> list[tuple[str, tuple]]:
    """(solution module, replacements) of every classic mistake's mutant, from ``grader.mistakes``."""
    from grader import mistakes

    return [(mistakes.module_of(m.id), m.mutant_patch) for m in mistakes.all_mistakes().values() if m.mutant_patch]


def _copy(source: Path, target: Path) -> Path:
    modules = target / "exercises"
    shutil.copytree(source, modules, ignore=shutil.ignore_patterns("__pycache__"))
    return modules


def _kinds(size: int, mix: str, rng: random.Random) -> list[str]:
    """Exactly ``round(share * size)`` of each kind (the remainder to the first), in a seeded order."""
    counts = [round(share * size) for share in MIXES[mix]]
    counts[0] += size - sum(counts)
    kinds = [kind for kind, count in zip(KINDS, counts) for _ in range(count)]
    rng.shuffle(kinds)
    return kinds


def make_class(folder: Path, size: int, seed: int = 0, mix: str = "realistic") -> dict[str, int]:
    """Write ``size`` submissions of the named ``mix`` into ``folder`` (created); returns how many of each kind."""
    rng = random.Random(seed)
    patches = _patches()
    folder.mkdir(parents=True, exist_ok=True)
    counts = dict.fromkeys(KINDS, 0)
    for index, kind in enumerate(_kinds(size, mix, rng)):
        student = folder / f"student{index:04d}"
        counts[kind] += 1
        if kind == "reference":
            _copy(SOLUTIONS, student)
        elif kind == "mistake":
            module, replacements = patches[rng.randrange(len(patches))]
            path = _copy(SOLUTIONS, student) / f"{module}.py"
            path.write_text(apply(path.read_text(), replacements, str(path)))
        elif kind == "stubs":
            _copy(EXERCISES, student)
        else:
            module, source = HOSTILE[sorted(HOSTILE)[rng.randrange(len(HOSTILE))]]
            (_copy(SOLUTIONS, student) / f"{module}.py").write_text(source)
    return counts
