"""``attnkit quiz``: sessions, ``validate`` and ``export``; ``main(argv) -> int`` never shows a traceback."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from attnkit.arguments import RaisingParser, UsageError, add_exercises_argument, whole_number

from .bank import BankError, load_bank
from .exporting import FORMATS, export
from .model import GENERAL_TOPIC, TOPICS, plural

USAGE = """attnkit quiz [--topic T ...] [-n N] [--seed S] [--review] [--exam] [--answers FILE] [--bank FILE]
       attnkit quiz --exercise NAME
       attnkit quiz --stats
       attnkit quiz --import-feedback FILE
       attnkit quiz validate [FILES ...]
       attnkit quiz export --format {gift,moodle-xml,markdown,qti,html} [--variants K] [--exercises IDS|FILE] -o OUT"""


_positive = whole_number(1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Session options on ``parser``; ``validate`` and ``export`` as sub-verbs (made with the parser's class)."""
    parser.usage = USAGE
    parser.description = ("Self-study quiz on self-attention, with spaced repetition (FSRS when the fsrs package "
                          "is installed, else Leitner boxes). Subcommands: validate, export.")
    parser.add_argument("--topic", action="append", choices=TOPICS, default=[], metavar="T",
                        help=f"only this topic (repeatable): {', '.join(TOPICS)}")
    parser.add_argument("-n", type=_positive, default=10, metavar="N", help="number of questions (default 10)")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="same seed, same questions and order")
    parser.add_argument("--review", action="store_true", help="ask the questions that are due for review")
    parser.add_argument("--exam", action="store_true", help="explanations only at the end")
    parser.add_argument("--stats", action="store_true",
                        help="show your retention and the reviews due in the coming days, then exit")
    parser.add_argument("--answers", metavar="FILE", help="read answers from FILE, one per line ('-' = stdin)")
    parser.add_argument("--bank", action="append", default=[], metavar="FILE",
                        help="use this bank file instead of the shipped banks (repeatable)")
    parser.add_argument("--exercise", choices=TOPICS[:-1], metavar="NAME",
                        help="the 'predict, then run' questions of one exercise: " + ", ".join(TOPICS[:-1]))
    parser.add_argument("--import-feedback", metavar="FILE",
                        help="a graded JSON from attnkit grade (or Gradescope's results.json): the questions about "
                        "the mistakes it names come up in your next --review")
    verbs = parser.add_subparsers(dest="quiz_verb", metavar="{validate,export}", prog=parser.prog)
    validate = verbs.add_parser("validate", description="Check question banks (default: the shipped ones). "
                                "Files given are also checked for ids that a shipped bank already uses.")
    validate.add_argument("files", nargs="*", metavar="FILES",
                          help="bank files to check (default: the shipped banks); a file named like a shipped bank "
                               "stands in for it")
    validate.add_argument("--mistakes", action="store_true",
                          help="list the mistake ids a question may name in 'mistakes:' and exit")
    export = verbs.add_parser("export", description="Export the banks for an LMS or for print.")
    export.add_argument("--format", required=True, choices=FORMATS,
                        help="gift (Moodle GIFT), moodle-xml (Moodle XML), markdown (a printable sheet with an answer "
                             "key), qti (text2qti's input; run text2qti on it for Canvas) or html (one offline page "
                             "for self-study)")
    export.add_argument("--variants", type=_positive, default=1, metavar="K",
                        help="fixed variants per generated question (default 1)")
    export.add_argument("-o", "--out", required=True, metavar="OUT",
                        help="the file to write (replaced atomically; its folder is created)")
    subset = export.add_mutually_exclusive_group()
    subset.add_argument("--topic", action="append", choices=TOPICS, default=[], metavar="T",
                        help=f"only this topic (repeatable): {', '.join(TOPICS)}")
    add_exercises_argument(subset, help="only the topics of these exercises, plus concepts: comma-separated ids "
                           "(e.g. softmax,masking) or the course file given to attnkit release --exercises "
                           "(default: every topic)")
    export.add_argument("--bank", action="append", default=[], metavar="FILE",
                        help="export this bank file instead of the shipped banks (repeatable)")


def _bank_error(error: BankError, err) -> int:
    for problem in error.problems:
        print(problem, file=err)
    count = len(error.problems)
    print(f"{count} problem{'s' if count != 1 else ''} found; nothing was loaded. Fix the lines above "
          "(`attnkit quiz validate FILE` re-checks).", file=err)
    return 1


def _validate(args, out, err) -> int:
    if args.mistakes:
        from grader.mistakes import all_mistakes

        for mistake in sorted(all_mistakes().values(), key=lambda m: m.id):
            print(f"{mistake.id:<44} {mistake.looks_like}", file=out)
        return 0
    try:
        bank = load_bank(args.files or None, against_shipped=bool(args.files), schema_too=True)
    except BankError as error:
        return _bank_error(error, err)
    kinds = Counter(question.type for question in bank.questions)
    summary = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    print(f"ok: {plural(len(bank.files), 'file')}, {plural(len(bank.questions), 'question')} ({summary})", file=out)
    return 0


def _export(args, out, err) -> int:
    try:
        bank = load_bank(args.bank or None)
    except BankError as error:
        return _bank_error(error, err)
    topics = (*args.exercises, GENERAL_TOPIC) if args.exercises else args.topic
    questions = bank.by_topic(topics)
    if not questions:
        print(f"attnkit quiz export: no question of {', '.join(topics)} in {', '.join(bank.files)}; nothing written",
              file=err)
        return 1
    try:
        count = export(questions, args.format, Path(args.out), args.variants)
    except OSError as error:
        print(f"attnkit quiz export: cannot write {args.out}: {error.strerror or error}", file=err)
        return 1
    print(f"wrote {plural(count, 'question')} ({args.format}) to {args.out}", file=out)
    return 0


def _import_feedback(args, out, err, clock) -> int:
    from .feedback import FeedbackError, read
    from .progress import note_mistakes, now_utc
    from .validate import mistake_ids

    notes: list[str] = []
    try:
        found = read(Path(args.import_feedback), mistake_ids())
        queued = note_mistakes(found, when=(clock or now_utc)(), notes=notes)
    except FeedbackError as error:
        print(f"attnkit quiz --import-feedback: {error}", file=err)
        return 1
    except OSError as error:
        print(f"attnkit quiz: cannot save progress: {error}. Set ATTNKIT_HOME to a writable folder.", file=err)
        return 1
    for note in notes:
        print(f"note: {note}", file=out)
    if not found:
        print(f"{args.import_feedback}: no classic mistake was diagnosed; nothing to review.", file=out)
    else:
        print(f"{args.import_feedback}: {plural(len(found), 'diagnosed mistake')} ({', '.join(found)}); "
              f"{plural(queued, 'question')} about them will come up in `attnkit quiz --review`.", file=out)
    return 0


def _session(args, stdin, out, err, clock) -> int:
    from .progress import Progress, now_utc
    from .session import LineSource, Session, Settings

    try:
        bank = load_bank(args.bank or None)
    except BankError as error:
        return _bank_error(error, err)
    stream, echo, handle = stdin, not stdin.isatty(), None
    if args.answers and args.answers != "-":
        try:
            handle = stream = open(args.answers, encoding="utf-8")
        except OSError as error:
            print(f"attnkit quiz: cannot read answers file {args.answers}: {error.strerror or error}", file=err)
            return 2
        echo = True
    try:
        progress = Progress.load()
        settings = Settings(tuple(args.topic), args.n, args.seed, args.review, args.exam, args.exercise)
        session = Session(bank, settings, progress, LineSource(stream, out, echo), out, clock or now_utc)
        return session.run()
    except BrokenPipeError:  # the reader went away (`attnkit quiz ... | head`): nothing to report to
        return 141
    except OSError as error:
        print(f"attnkit quiz: cannot save progress: {error}. Set ATTNKIT_HOME to a writable folder.", file=err)
        return 1
    finally:
        if handle is not None:
            handle.close()


def run(args, *, stdin=None, stdout=None, stderr=None, clock=None) -> int:
    """Run parsed ``attnkit quiz ...`` arguments; return the exit status."""
    stdin, out, err = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        if args.quiz_verb == "validate":
            return _validate(args, out, err)
        if args.quiz_verb == "export":
            return _export(args, out, err)
        if args.import_feedback:
            return _import_feedback(args, out, err, clock)
        if args.stats:
            from .stats import show

            return show(out, err, clock)
        return _session(args, stdin, out, err, clock)
    except KeyboardInterrupt:
        print("\ninterrupted", file=err)
        return 130


def main(argv=None, *, stdin=None, stdout=None, stderr=None, clock=None) -> int:
    """Run ``attnkit quiz ...`` with ``argv`` (the arguments after ``quiz``); return the exit status."""
    parser = RaisingParser(prog="attnkit quiz")
    add_arguments(parser)
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except UsageError as error:
        print(error, file=stderr or sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return int(done.code or 0)
    return run(args, stdin=stdin, stdout=stdout, stderr=stderr, clock=clock)
