"""Where a submission's time goes on the trusted side: CPU time per part, in process, so the child's cost is out of
the picture (``python -m benchmarks.trusted_side [--repeats N] [--cold] [FOLDER ...]``).

Every check of every exercise runs against each folder (default: the reference solutions) with the implementation
in this process (``grader.sandbox.in_process``), after one warm-up run of the same folders (``--cold``: of the
reference only, so each folder's failures are diagnosed for the first time, as in a class). The functions of each
part are wrapped with a CPU clock (``time.thread_time``) and every moment is charged to the innermost part running,
so nothing is counted twice; the rest of a check's time is its own body (loops, slicing, message text). The
wrappers cost a few microseconds per call: the parts' sum exceeds an unwrapped run by about a fifth.

Parts: input generation (``checks.common.normal``), the reference's memo digests (``Call.digest``), the reference
computing (``LiveReference.call`` less its digest), writing a call down for diagnosis (``Session.call``),
comparisons (``grader.compare`` and ``checks.trees``), diagnosis (``Session.diagnose``, ``diagnose_rank``, the
dtype-promotion search) with the mistaken references' runs apart, and the student's side (the in-process
transport: the implementation running, its arguments copied and compared for mutations).
"""
from __future__ import annotations

import argparse
import functools
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .measure import ROOT

_clock = threading.local()
spent: dict[str, float] = {}


def _timed(part: str, function: Callable) -> Callable:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        stack = _clock.__dict__.setdefault("stack", [])
        now = time.thread_time()
        if stack:
            spent[stack[-1][0]] = spent.get(stack[-1][0], 0.0) + now - stack[-1][1]
        stack.append([part, now])
        try:
            return function(*args, **kwargs)
        finally:
            end = time.thread_time()
            name, began = stack.pop()
            spent[name] = spent.get(name, 0.0) + end - began
            if stack:
                stack[-1][1] = end
    return timed


def _everywhere(part: str, function: Callable) -> None:
    """``function`` wrapped wherever a loaded module holds it by name (checks import helpers by name)."""
    timed = _timed(part, function)
    for module in list(sys.modules.values()):
        names = getattr(module, "__dict__", None) or {}
        for name, value in list(names.items()):
            if value is function:
                names[name] = timed


def instrument() -> None:
    from functools import cached_property

    from grader import calls, compare, curriculum, diagnosis, mistaken, reference, runner
    from grader.checks import common, trees
    from grader.sandbox import trusted_transport

    for exercise in curriculum.ids():
        runner.discover(exercise)   # every check module loaded, so their imported names are wrapped too
    _everywhere("inputs", common.normal)
    digest = cached_property(_timed("digests", calls.Call.__dict__["digest"].func))
    digest.__set_name__(calls.Call, "digest")
    calls.Call.digest = digest
    reference.LiveReference.call = _timed("reference computing", reference.LiveReference.call)
    diagnosis.Session.call = _timed("calls written down", diagnosis.Session.call)
    for name in ("diagnose", "diagnose_rank"):
        setattr(diagnosis.Session, name, _timed("diagnosis", getattr(diagnosis.Session, name)))
    _everywhere("diagnosis", runner._promoting_dependency)
    _everywhere("mistaken references", mistaken.memo_call)
    diagnosis.Session._rerun = _timed("mistaken references", diagnosis.Session._rerun)
    for name in ("expect_close", "expect_parts", "expect_array", "matches", "first_difference", "restate"):
        _everywhere("comparisons", getattr(compare, name))
    _everywhere("diagnosis", compare.explains)
    for name in dir(trees):
        if name.startswith("expect"):
            _everywhere("comparisons", getattr(trees, name))
    transport = type(trusted_transport(ROOT / "solutions"))   # the in-process transport's class (the public face)
    transport.request = _timed("student's side (in process)", transport.request)
    _everywhere("check bodies", runner.execute)


def run(folders: list[Path], repeats: int = 5, cold: bool = False) -> dict:
    """CPU milliseconds per submission run and per part (mean over ``repeats`` runs of every folder)."""
    from grader import curriculum
    from grader.runner import modules_dir_of, run_exercise
    from grader.sandbox import in_process

    instrument()
    modules = [modules_dir_of(folder) for folder in folders]

    def grade(folder: Path) -> None:
        for exercise in curriculum.ids():
            run_exercise(exercise, lambda e: in_process(folder, e))

    for folder in ([ROOT / "solutions"] if cold else modules):
        grade(folder)
    spent.clear()
    start = time.thread_time()
    for _ in range(1 if cold else repeats):
        for folder in modules:
            grade(folder)
    runs = (1 if cold else repeats) * len(modules)
    total = time.thread_time() - start
    parts = {part: seconds * 1000 / runs for part, seconds in sorted(spent.items(), key=lambda item: -item[1])}
    return {"runs": runs, "cpu_ms": total * 1000 / runs, "parts_ms": parts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trusted_side", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="submission folders (default: the reference)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="warm up on the reference only: first diagnoses")
    args = parser.parse_args(argv)
    found = run(args.folders or [ROOT / "solutions"], args.repeats, args.cold)
    print(f"{found['runs']} runs; CPU per submission {found['cpu_ms']:.1f} ms")
    for part, ms in found["parts_ms"].items():
        print(f"  {part:30s} {ms:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
