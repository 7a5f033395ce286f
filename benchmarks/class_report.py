"""report.html for a class of 300: its size and the time to write it (``python -m benchmarks.class_report``).

A synthetic class of ``--sample`` submissions (:mod:`benchmarks.synthetic_class`: right, one classic mistake,
untouched stubs, hostile) is graded once by ``attnkit grade``; its results are then repeated under new names up
to ``--size`` students, keeping the mix. Timed: the class summary, the report's data and page, and the atomic
write (median of ``--repeats``). Also measured: the same size when every student handed in the untouched stubs
(the largest feedback a student without a problem gets). Nothing here is asserted by the tests.
"""
from __future__ import annotations

import argparse
import dataclasses
import shutil
import tempfile
import time
from pathlib import Path

from .measure import median
from .synthetic_class import EXERCISES, make_class

TIMEOUT = 1.0  # seconds per call: the class's endless loop costs its timeouts


def graded(folder: Path, out: Path) -> list:
    """Every submission of ``folder`` graded by ``attnkit grade`` into ``out``, as SubmissionResults."""
    from attnkit.grade import main, records
    from grader.results import SubmissionResult

    with open(out.with_suffix(".log"), "w") as log:
        main(folder, out, jobs=2, timeout=TIMEOUT, progress=False, stdout=log, stderr=log, pictures=False)
    return [SubmissionResult.from_dict(records.load(out, p.stem)) for p in sorted(folder.iterdir())]


def repeated(sample: list, size: int) -> list:
    return [dataclasses.replace(sample[i % len(sample)], student=f"student{i:04d}") for i in range(size)]


def time_report(results: list, out: Path, repeats: int) -> dict:
    from attnkit.grade.summary import class_summary
    from attnkit.report import write_report
    from grader import curriculum

    exercise_ids = curriculum.ids()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        write_report(out, results, class_summary(results, exercise_ids, {}, []), exercise_ids)
        seconds.append(time.perf_counter() - start)
    return {"students": len(results), "seconds": median(seconds), "bytes": (out / "report.html").stat().st_size}


def run(size: int = 300, sample: int = 30, repeats: int = 5) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="attnkit-report-bench-") as folder:
        work = Path(folder)
        make_class(work / "class", sample)
        mix = graded(work / "class", work / "out")
        shutil.copytree(EXERCISES, work / "stubs" / "untouched" / "exercises")
        stubs = graded(work / "stubs", work / "stubs-out")
        return [dict(time_report(repeated(mix, size), work, repeats), kind=f"synthetic mix (from {sample})"),
                dict(time_report(repeated(stubs, size), work, repeats), kind="every student: stubs")]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.class_report", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=300, help="students in the report (default 300)")
    parser.add_argument("--sample", type=int, default=30, help="submissions actually graded (default 30)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'class':<32}{'students':>9}{'seconds':>9}{'MB':>7}")
    for row in run(args.size, args.sample, args.repeats):
        print(f"{row['kind']:<32}{row['students']:>9}{row['seconds']:>9.3f}{row['bytes'] / 1e6:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
