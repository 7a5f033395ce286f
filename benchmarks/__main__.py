"""``python -m benchmarks``: every benchmark of attnkit in one run; prints tables, writes JSON.

Sections: class grading (``attnkit grade`` on synthetic classes, --jobs 1 and 2, three class
sizes), side by side with ``nbgrader autograde`` (skipped with a line when nbgrader is not
installed), isolation overhead (in-process floor vs sandbox), student latency (``attnkit
check`` from process start), tiled attention (time and memory against plain attention), cached against
uncached generation (the KV cache at d = 256, 150 new tokens) and, with
``--versus REV``, a half-failing and an all-correct class graded by this checkout and an earlier revision
of the kit, side by side (:mod:`benchmarks.versus`).
Ratios are measured side by side in the same run; nothing here is asserted by the tests.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from grader import atomic  # noqa: E402  (no numpy behind it)
from grader.sandbox import SINGLE_THREADED  # noqa: E402  (no numpy behind it)

for _name, _value in SINGLE_THREADED.items():
    os.environ.setdefault(_name, _value)  # as ``attnkit`` itself runs (before numpy loads)

from . import class_grading, generation, isolation, nbgrader_side_by_side, student_latency, tiled, versus  # noqa: E402
from .report import render  # noqa: E402

SECTIONS = ("grading", "nbgrader", "isolation", "latency", "tiled", "generation", "versus")


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(memory, 1), "python": platform.python_version(),
            "os": platform.platform()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,200,800", help="class sizes (default 50,200,800)")
    parser.add_argument("--nbgrader-size", type=int, default=10, help="submissions graded by both tools (default 10)")
    parser.add_argument("--quick", action="store_true", help="small classes and fewer repeats (a smoke run)")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only these sections")
    parser.add_argument("--versus", metavar="REV", help="also grade one class with this git revision of the kit, "
                        "side by side (its course: --exercises set to its curriculum)")
    parser.add_argument("--versus-size", type=int, default=200, help="submissions per class in --versus (default 200)")
    parser.add_argument("--versus-repeats", type=int, default=1, help="alternating runs per class in --versus "
                        "(default 1; medians when more)")
    parser.add_argument("--out", default="benchmarks/results.json", help="where the JSON goes")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if not args.quick else [20, 40]
    chosen = args.only or list(SECTIONS)
    results: dict = {"machine": machine(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    if "grading" in chosen:
        results["grading"] = class_grading.run(sizes, [1, 2])
    if "nbgrader" in chosen:
        results["nbgrader"] = nbgrader_side_by_side.run(3 if args.quick else args.nbgrader_size)
    if "isolation" in chosen:
        results["isolation"] = isolation.run(3 if args.quick else 7)
    if "latency" in chosen:
        results["latency"] = student_latency.run(2 if args.quick else 5)
    if "tiled" in chosen:
        results["tiled"] = tiled.run((512, 1024) if args.quick else (1024, 2048, 4096), repeats=1 if args.quick else 3)
    if "generation" in chosen:
        results["generation"] = generation.run(n_new=40 if args.quick else 150, repeats=1 if args.quick else 2)
    if "versus" in chosen and args.versus:
        results["versus"] = versus.run(args.versus, 20 if args.quick else args.versus_size,
                                        1 if args.quick else args.versus_repeats)
    print(render(results))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(out, json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
