"""``attnkit grade``: grade a class folder in parallel, resumably, into OUTDIR.

Order of work: check SUBMISSIONS and OUTDIR (user errors: one line, exit 2, nothing graded),
hash every submission, skip the ones whose record is up to date, grade the rest in ``jobs``
worker processes (each writes its own results atomically), then write grades.csv and the
class summary from the records. Ctrl-C stops the workers; what is written stays written.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
from pathlib import Path

from . import atomic, records, summary
from . import progress as progress_view
from .submissions import Entry, content_hash, discover

RESERVED = {"summary", "grades"}  # OUTDIR/summary.json; keep grades.* free too


class UserError(Exception):
    """A mistake in how the command was called: printed as one line, exit status 2."""


def main(submissions: Path, out: Path, jobs: int | None = None, timeout: float = 10.0, memory_mb: int = 2048,
         progress: bool | None = None, *, stdout=None, stderr=None) -> int:
    """Grade every submission in ``submissions`` into ``out``; returns the exit status.

    ``progress``: None shows a bar when stderr is a terminal, line-based progress otherwise;
    True / False force the bar / the lines.

    0: everything graded; 1: the grader failed on some submission (re-run to retry);
    2: a user error (nothing graded); 130: interrupted (re-run to resume).
    """
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    try:
        entries, warnings = _prepare(Path(submissions), Path(out), jobs, timeout, memory_mb)
    except UserError as error:
        print(f"attnkit grade: {error}", file=stderr)
        return 2
    return _run(entries, warnings, Path(out), jobs or os.cpu_count() or 1, timeout, memory_mb, progress, stdout, stderr)


def _prepare(submissions: Path, out: Path, jobs, timeout, memory_mb) -> tuple[list[Entry], list[str]]:
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1 (got {jobs})")
    if timeout <= 0 or memory_mb <= 0:
        raise UserError("--timeout and --memory-mb must be positive")
    if not submissions.exists():
        raise UserError(f"no such folder: {submissions}. Name the folder holding one folder or .zip per student.")
    if not submissions.is_dir():
        raise UserError(f"{submissions} is not a folder. Name the folder holding one folder or .zip per student.")
    try:
        entries, warnings = discover(submissions)
    except OSError as error:
        raise UserError(f"cannot read {submissions} ({error.strerror}); check its permissions.") from None
    out_resolved = out.resolve()
    kept = [e for e in entries if e.path.resolve() != out_resolved]
    if len(kept) < len(entries):
        warnings.append(f"ignored {out.name}: it is the output folder")
    if not kept:
        raise UserError(f"{submissions} holds no submissions (expected one folder or .zip per student).")
    clash = sorted(e.student for e in kept if e.student.lower() in RESERVED)
    if clash:
        raise UserError(f"student id {clash[0]!r} would overwrite OUTDIR/{clash[0]}.json; rename that entry "
                        f"in {submissions}.")
    _check_writable(out)
    return kept, warnings


def _check_writable(out: Path) -> None:
    try:
        records.record_dir(out).mkdir(parents=True, exist_ok=True)
        probe = records.record_dir(out) / ".probe.tmp"
        with open(probe, "wb") as handle:
            handle.write(b"ok")
        probe.unlink()
        atomic.sweep(out)
        atomic.sweep(records.record_dir(out))
    except OSError as error:
        raise UserError(f"cannot write to output folder {out} ({error.strerror}). Choose a folder you can write "
                        "to with --out, or fix its permissions.") from None


def _run(entries, warnings, out, jobs, timeout, memory_mb, bar, stdout, stderr) -> int:
    from grader import curriculum
    from grader.runner import discover as discover_checks

    from . import worker

    exercise_ids = curriculum.ids()
    try:
        for exercise in exercise_ids:
            discover_checks(exercise)
    except Exception as error:
        print(f"attnkit grade: the grader's checks could not be loaded ({type(error).__name__}: {error}); "
              "nothing was graded.", file=stderr)
        return 1
    version = records.grader_version()
    tasks, skipped = [], 0
    for entry in entries:
        try:
            digest = content_hash(entry)
        except OSError as error:  # graded anyway: the worker reports the unreadable file to the student
            digest = f"unreadable: {error}"
        if records.up_to_date(out, entry.student, digest, version):
            skipped += 1
        else:
            tasks.append(worker.Task(entry, digest, out, version))
    errors: dict[str, str] = {}
    with progress_view.make(len(tasks), bar, stderr) as shown:
        if skipped:
            shown.note(f"{skipped} of {len(entries)} submissions up to date in {out}, skipped")
        if tasks:
            status = _grade_all(tasks, min(jobs, len(tasks)), timeout, memory_mb, shown, errors, out, len(entries),
                                skipped)
            if status is not None:
                return status
    results = []
    from grader.results import SubmissionResult

    for entry in entries:
        if entry.student in errors:
            continue
        data = records.load(out, entry.student)
        if data is None:
            errors[entry.student] = "no result was written"
            continue
        results.append(SubmissionResult.from_dict(data))
    text = summary.write_all(out, results, exercise_ids, errors, warnings)
    print(text, end="", file=stdout)
    print(f"wrote {out / 'grades.csv'}, {out / 'summary.txt'} and one <student>.json per student", file=stdout)
    return 1 if errors else 0


def _grade_all(tasks, jobs, timeout, memory_mb, shown, errors, out, total, skipped) -> int | None:
    from . import worker

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["attnkit.grade.worker"])
    pool = context.Pool(jobs, initializer=worker.initialize, initargs=(timeout, memory_mb << 20))
    try:
        for finished in pool.imap_unordered(worker.grade, tasks, chunksize=1):
            if finished.status == worker.FAILED:
                errors[finished.student] = finished.message
            shown.advance(finished.student, finished.score, finished.max_score, finished.status)
        pool.close()
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        atomic.sweep(out)
        atomic.sweep(records.record_dir(out))
        saved = sum(records.up_to_date(out, t.entry.student, t.submission_hash, t.version) for t in tasks)
        shown.note(f"\ninterrupted: {skipped + saved} of {total} submissions are graded and saved in {out}. "
                   "Run the same command again to resume; graded submissions are skipped.")
        return 130
    pool.join()
    return None
