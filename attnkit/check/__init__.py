"""``attnkit check``: the student's command. Runs the checks on ``./exercises`` in the sandbox.

Prints a compact table (points, checks passed) per exercise, then the first failure of each
exercise (every failure with ``--all``) with its diagnosis and the task to look at; exit status
0 only when all pass. A diagnosed classic mistake queues the quiz questions about it for the
next ``attnkit quiz --review``; with ``ATTNKIT_PREDICT_FIRST=1`` an exercise is checked only once
its "predict, then run" questions (``attnkit quiz --exercise NAME``) were answered right.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from grader.sandbox import TIMEOUT_SECONDS

NO_IMPL = ("attnkit check: no folder {path}. Run this inside your attnkit folder (the one holding exercises/), "
           "or name your folder with --impl DIR.")
UNKNOWN_EXERCISE = "attnkit check: unknown exercise {name!r}; the exercises are: {known}"
PREDICT_GATE = "ATTNKIT_PREDICT_FIRST"


def add_arguments(parser) -> None:
    from attnkit.arguments import positive_seconds

    parser.add_argument("exercises", nargs="*", metavar="EXERCISE", help="only these exercises (default: all)")
    parser.add_argument("--impl", default="exercises", metavar="DIR", help="the folder with your modules")
    parser.add_argument("--timeout", type=positive_seconds, default=TIMEOUT_SECONDS, metavar="S",
                        help=f"seconds per call (default {TIMEOUT_SECONDS:g})")
    parser.add_argument("--all", action="store_true", dest="every",
                        help="show (and diagnose) every failing check, not only the first of each exercise")


def run(args) -> int:
    return main(args.exercises, args.impl, args.timeout, every=args.every)


def main(exercises: list[str] | None = None, impl: str | Path = "exercises", timeout: float = TIMEOUT_SECONDS,
         out=None, every: bool = False) -> int:
    """Check ``impl`` (all exercises, or the ones named); returns the exit status."""
    out = out or sys.stdout
    started = time.perf_counter()
    from attnkit.arguments import exercises_folder

    impl = exercises_folder(impl)
    if not impl.is_dir():
        print(NO_IMPL.format(path=impl), file=sys.stderr)
        return 2
    from attnkit import early
    from grader.sandbox import launch_early

    # first thing (when the command line did not already): the zygote loads numpy on one core while this process
    # imports on the other
    launched = early.take() or launch_early()
    from grader.sandbox import Limits, Sandbox

    with Sandbox(Limits(timeout=timeout), launched=launched) as sandbox:
        from grader import curriculum
        from grader.runner import modules_dir_of

        known = curriculum.ids()
        for name in exercises or ():
            if name not in known:
                print(UNKNOWN_EXERCISE.format(name=name, known=", ".join(known)), file=sys.stderr)
                return 2
        chosen = tuple(e for e in known if not exercises or e in exercises)
        from grader.reference import checking

        with checking():  # one run of one submission: the answers earlier runs kept, no memo
            passed = check_and_report(modules_dir_of(impl), sandbox, chosen, out, started, every=every)
    return 0 if passed else 1


def check_and_report(modules: Path, sandbox, exercises: tuple[str, ...], out, started: float,
                     every: bool = False) -> bool:
    """Check ``exercises`` of the modules in ``modules`` and write the report (``attnkit check`` and
    ``attnkit watch``): the table and failures, the exercises waiting for their predictions, and the
    note about quiz questions queued for the diagnosed mistakes. True when every check passed."""
    from grader.runner import run_submission

    from .report import render

    waiting = predictions_missing(exercises)
    chosen = tuple(e for e in exercises if e not in waiting)
    results = []
    if chosen:
        with sandbox.session(modules, keep_bytecode=True) as session:
            results = run_submission(session, chosen, lanes=lanes(), keep_printed=True, diagnose_all=every)
    out.write(render(results, color=out.isatty(), seconds=time.perf_counter() - started, every=every,
                     waiting=waiting))
    mistakes = sorted({c.mistake for r in results for c in r.checks if c.mistake})
    if mistakes:
        out.write(review_note(mistakes))
    out.flush()
    return not waiting and all(c.status == "passed" for r in results for c in r.checks)


def lanes() -> int:
    """How many exercises to check at once: three per CPU this process may use, at most six, and one on a single
    CPU. A lane is a thread of the trusted side and its child, taking turns (request, answer): while one lane waits
    for its child, another lane's trusted work and other lanes' children keep the cores busy. On 2 cores, 4 lanes
    finish all exercises in about 6% less time than 2; since the children are killed by the zygote (no lane stops
    the others for a kill), 6 lanes take 3% less than 4 (x0.971 and x1/1.029, 20 pairs each), and 8 no less than 6.
    On one CPU nothing runs beside the turn being taken, and a second lane only adds switches (3% more time)."""
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    return 1 if len(cpus) <= 1 else min(6, 3 * len(cpus))


def predictions_missing(exercises: tuple[str, ...]) -> tuple[str, ...]:
    """With the "predict, then run" gate on (``ATTNKIT_PREDICT_FIRST=1``, set by the instructor in the
    students' environment), the exercises whose predict questions were not all answered right yet."""
    if os.environ.get(PREDICT_GATE, "") in ("", "0"):
        return ()
    from attnkit.quiz import gate
    from attnkit.quiz.bank import load_bank

    bank = load_bank()  # once: every exercise's predict questions come from the same banks
    return tuple(e for e in exercises if not gate.passed(e, bank=bank))


def review_note(mistakes: list[str]) -> str:
    """Queue the quiz questions about the diagnosed ``mistakes`` for the next review; the line that says so."""
    from attnkit.quiz.model import plural
    from attnkit.quiz.progress import note_mistakes

    notes: list[str] = []
    try:
        queued = note_mistakes(mistakes, notes=notes)
    except OSError as error:  # the check's result stands; only the quiz's reminder is lost
        return f"\n(quiz progress not saved: {error.strerror or error}; set ATTNKIT_HOME to a writable folder)\n"
    noted = "".join(f"\nnote: {note}" for note in notes)
    if not queued:
        return noted + "\n" if noted else ""
    about = "this mistake" if len(mistakes) == 1 else "these mistakes"
    verb = "waits" if queued == 1 else "wait"
    return f"{noted}\n{plural(queued, 'quiz question')} about {about} now {verb} in `attnkit quiz --review`.\n"
