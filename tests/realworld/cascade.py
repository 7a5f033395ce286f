"""What an exercise's checks name under ``attnkit check`` when a bug sits in an exercise it builds on.

``python -m tests.realworld.cascade --corpus tests/realworld/heldout5 [--target sampling]``: each buggy entry of the
corpus whose exercise the target builds on is checked as ``attnkit check`` checks (the student's own modules
answer each other), together with the target; the target's failing checks of wrong discrete values (token ids)
are then counted by what they name: the entry's own mistake, another mistake, or nothing (the report then says to
fix the failing exercise first, ``grader.blame.unname_cascades``).
"""
from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from grader import curriculum
from grader.reference import checking
from grader.results import Status
from grader.runner import run_submission
from grader.sandbox.host.session import GradingSession
from grader.sandbox.host.spawner import Zygote

from . import measure

OUTCOMES = ("its own mistake", "another mistake", "no name", "no wrong tokens")


def outcome(checks, mistake: str) -> tuple[str, set[str]]:
    """How the target's checks of discrete values came out (``mistake``: the entry's), and the mistakes they named."""
    tokens = [c for c in checks if c.status == Status.FAILED and c.discrete]
    named = {c.mistake for c in tokens if c.mistake}
    if not tokens:
        return "no wrong tokens", named
    if not named:
        return "no name", named
    return ("its own mistake" if named == {mistake} else "another mistake"), named


def run(corpus: Path, target: str) -> tuple[Counter, list[tuple[str, str, set[str]]]]:
    upstream = set(curriculum.prerequisites(target))
    entries = [e for e in measure.load_corpus(corpus) if e.mistake and e.exercise in upstream]
    counts: Counter = Counter()
    others = []
    with Zygote() as zygote, checking(), tempfile.TemporaryDirectory(prefix="attnkit-cascade-") as scratch:
        measure.build_submissions(entries, Path(scratch))  # one folder per entry, as attnkit grade gets them
        for entry in entries:
            with GradingSession(zygote, Path(scratch) / entry.name) as session:
                results = {r.exercise: r for r in run_submission(session, (entry.exercise, target),
                                                                 diagnose_all=False)}
            kind, named = outcome(results[target].checks, entry.mistake)
            counts[kind] += 1
            if kind == "another mistake":
                others.append((entry.name, entry.mistake, named))
    return counts, others


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=measure.CORPUS)
    parser.add_argument("--target", default="sampling")
    args = parser.parse_args()
    counts, others = run(args.corpus, args.target)
    total = sum(counts.values())
    print(f"{total} entries upstream of {args.target} in {args.corpus.name}:")
    for kind in OUTCOMES:
        print(f"  {kind:16s} {counts[kind]}")
    for name, mistake, named in others:
        print(f"    {name}: expected {mistake}, {args.target} named {', '.join(sorted(named))}")


if __name__ == "__main__":
    main()
