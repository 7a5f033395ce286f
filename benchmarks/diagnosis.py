"""``python -m benchmarks.diagnosis``: what a diagnosis adds to a failing check, in its worst case.

Every public function of every exercise returns its reference's float results times 1.1 plus 0.01, a value no
mistake explains, so each failing check tries everything (the function's own mistakes, its other settings, the
shared pieces' mistakes, pairs of its own mistakes, the shape). Graded in process twice: the first round pays
for building the mistaken references and their first runs (a grading process does that once), the second is
the steady state. Prints the median, 90th percentile and maximum time of ``Session.diagnose`` per failing check
(with ``Session.diagnose_rank``, the student's function run again at other ranks, when it runs),
then per exercise the first diagnosis, the slowest and their total.
"""
from __future__ import annotations

import importlib
import inspect
import statistics
import tempfile
import time
from pathlib import Path

from grader import curriculum, diagnosis
from grader.runner import run_exercise
from grader.sandbox import in_process

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"
WRONG = '''

import numpy as _np


def _wrong(value):
    if isinstance(value, tuple):
        return tuple(_wrong(item) for item in value)
    return value * 1.1 + 0.01 if isinstance(value, _np.ndarray) and value.dtype.kind == "f" else value
'''


def wrong_module(module: str) -> str:
    """The reference module with every public function's float results made wrong by the same small factor."""
    reference = importlib.import_module(f"solutions.{module}")
    names = [name for name, value in vars(reference).items() if inspect.isfunction(value)
             and value.__module__ == reference.__name__ and not name.startswith("_")]
    wrapped = "".join(f"\n\n_right_{name} = {name}\n\n\ndef {name}(*args, **kwargs):\n"
                      f"    return _wrong(_right_{name}(*args, **kwargs))\n" for name in names)
    return (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") + WRONG + wrapped


def one_round(folder: Path) -> dict[str, list[float]]:
    """Seconds of every diagnosis, by exercise."""
    times: dict[str, list[float]] = {}
    diagnose = diagnosis.Session.diagnose
    current = [""]

    def timed(session, failure):
        start = time.perf_counter()
        try:
            return diagnose(session, failure)
        finally:
            times.setdefault(current[0], []).append(time.perf_counter() - start)

    rank = diagnosis.Session.diagnose_rank

    def timed_rank(session, failure, impl, found):  # the student's function run again: part of the same diagnosis
        start = time.perf_counter()
        try:
            return rank(session, failure, impl, found)
        finally:
            times[current[0]][-1] += time.perf_counter() - start

    diagnosis.Session.diagnose, diagnosis.Session.diagnose_rank = timed, timed_rank
    try:
        for exercise in curriculum.exercises():
            current[0] = exercise.id
            submission = folder / exercise.id
            submission.mkdir()
            for source in SOLUTIONS.glob("*.py"):
                (submission / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
            (submission / f"{exercise.id}.py").write_text(wrong_module(exercise.id), encoding="utf-8")
            run_exercise(exercise.id, lambda name, submission=submission: in_process(submission, name))
    finally:
        diagnosis.Session.diagnose, diagnosis.Session.diagnose_rank = diagnose, rank
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name in ("first (cold)", "second (steady)"):
            (Path(folder) / name).mkdir()
            by_exercise = one_round(Path(folder) / name)
            times = sorted(t for found in by_exercise.values() for t in found)
            print(f"{name:>16}: {len(times)} diagnoses; median {statistics.median(times) * 1000:.1f} ms, "
                  f"90th percentile {times[int(0.9 * len(times))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
            for exercise, found in by_exercise.items():
                print(f"{exercise:>20}: {len(found):3d} diagnoses; first {found[0] * 1000:6.1f} ms, "
                      f"max {max(found) * 1000:6.1f} ms, total {sum(found) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
