"""``attnkit grade``: grade a class folder in parallel, resumably, into OUTDIR.

Order of work: check SUBMISSIONS and OUTDIR (user errors: one line, exit 2, nothing graded),
hash every submission, skip the ones whose record is up to date, grade the rest in ``jobs``
worker processes (each writes its own results atomically), then write grades.csv and the
class summary from the records. Ctrl-C stops the workers; what is written stays written.
"""
from __future__ import annotations

import errno
import math
import multiprocessing
import os
import shutil
import sys
import tempfile
from pathlib import Path

from attnkit import atomic
from grader.sandbox.host import limits as defaults

from . import progress as progress_view
from . import records, scratch, summary
from .submissions import Entry, content_hash, discover

CLASS_FILES = ("grades.csv", "summary.json", "summary.txt")
PROBE_BYTES = 64 << 10            # the probe written (and fsynced) into OUTDIR before anything is graded
BYTES_PER_STUDENT = 128 << 10     # room asked for per submission: its Gradescope JSON + record are ~50 KB
FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
STUDENT_SECONDS = 60.0            # --student-timeout: all the calls of one submission together
SHOW_EVERY = 0.5                  # seconds between updates of who is being graded

OUT_UNWRITABLE = ("cannot write to output folder {out} ({reason}). Choose a folder you can write to with --out, "
                  "or fix its permissions; nothing was graded.")
OUT_FULL = ("cannot write to output folder {out}: its disk is full ({reason}). Free some space there or choose "
            "another folder with --out; nothing was graded.")
OUT_TOO_SMALL = ("output folder {out} has {free} free; grading {count} submissions needs about {needed}. Free "
                 "some space there or choose another folder with --out; nothing was graded.")
OUT_BLOCKED = ("{path} is a folder, but attnkit grade writes its {name} there. Move it away or choose another "
               "folder with --out; nothing was graded.")
TEMP_UNWRITABLE = ("cannot make a temporary folder in {tmp} ({reason}). Set TMPDIR to a folder you can write to; "
                   "nothing was graded.")
STDLIB_UNREADABLE = ("user {user}, whom student code runs as when the grader runs as root, cannot read the standard "
                     "library in {stdlib}, and a readable copy could not be made in {tmp} ({reason}). Free some space "
                     "there, set TMPDIR to another folder, or install Python where others may read it; nothing "
                     "was graded.")
TEMP_UNREACHABLE = ("the temp dir {tmp} is out of reach of user {user}, whom student code runs as when the "
                    "grader runs as root ({folder} may not be passed through by others). Set TMPDIR to a folder "
                    "everyone may pass through, e.g. TMPDIR=/tmp; nothing was graded.")
SUMMARY_UNWRITABLE = ("cannot write the class files in {out} ({reason}); every graded student is saved in {records}. "
                      "Fix that (free some space?) and run the same command again: graded submissions are skipped.")


class UserError(Exception):
    """A mistake in how the command was called: printed as one line, exit status 2."""


def main(submissions: Path, out: Path, jobs: int | None = None, timeout: float = defaults.TIMEOUT_SECONDS,
         memory_mb: int = defaults.MEMORY_MB, progress: bool | None = None, *,
         student_timeout: float = STUDENT_SECONDS, stdout=None, stderr=None,
         exercises: tuple[str, ...] | None = None, pictures: bool = True) -> int:
    """Grade every submission in ``submissions`` into ``out``; returns the exit status.

    ``timeout``: seconds one call may take; ``student_timeout``: seconds all the calls of one submission may
    take together (each exercise gets at most 3 x ``timeout``); past them, the remaining checks fail with a
    message saying the code was too slow. ``progress``: None shows a bar when stderr is a terminal,
    line-based progress otherwise; True / False force the bar / the lines. ``exercises``: a course's subset
    (``grader.curriculum.select``); the points, the gradebook's columns and the summary follow it.
    ``pictures``: draw the class summary's PNGs (False: no matplotlib, no line about them; Gradescope's
    one-student runs).

    0: everything graded; 1: the grader failed on some submission (re-run to retry);
    2: a user error (nothing graded); 130: interrupted (re-run to resume).
    """
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    try:
        entries, warnings = _prepare(Path(submissions), Path(out), jobs, timeout, memory_mb)
        if not (math.isfinite(student_timeout) and 0 < student_timeout <= MAX_SECONDS * 100):
            raise UserError(f"--student-timeout must be a number of seconds above 0 and at most {MAX_SECONDS * 100:g} "
                            f"(got {student_timeout:g})")
    except UserError as error:
        print(f"attnkit grade: {error}", file=stderr)
        return 2
    limits = (timeout, memory_mb, student_timeout)
    return _run(entries, warnings, Path(out), jobs or os.cpu_count() or 1, limits, progress, stdout, stderr,
                exercises, pictures)


MAX_SECONDS = 3600.0   # --timeout: one call
MIN_MEMORY_MB = 256     # --memory-mb: a child with numpy loaded maps about 172 MiB before any student code


def check_limits(timeout: float, memory_mb: int) -> None:
    """UserError naming the option and what to give, for a limit no child could run under (NaN, infinite, zero,
    negative, more memory than this machine has)."""
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_SECONDS):
        raise UserError(f"--timeout must be a number of seconds above 0 and at most {MAX_SECONDS:g} (got {timeout:g})")
    try:
        machine = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    except (ValueError, OSError):
        machine = 1 << 30  # unknown: 1 TiB
    if not MIN_MEMORY_MB <= memory_mb <= machine:
        raise UserError(f"--memory-mb must be between {MIN_MEMORY_MB} and this machine's {machine} MiB "
                        f"(got {memory_mb})")


def _prepare(submissions: Path, out: Path, jobs, timeout, memory_mb) -> tuple[list[Entry], list[str]]:
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1 (got {jobs})")
    check_limits(timeout, memory_mb)
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
    _check_writable(out, len(kept))
    _check_temp()
    return kept, warnings


def _check_writable(out: Path, count: int) -> None:
    """Fail before anything is graded when OUTDIR cannot take the results: not a folder we can write,
    a full disk (a probe is written and fsynced), too little free space, or a class file's name taken."""
    try:
        records.record_dir(out).mkdir(parents=True, exist_ok=True)
        atomic.sweep(out)
        atomic.sweep(records.record_dir(out))
        fd, probe = tempfile.mkstemp(dir=records.record_dir(out), prefix=".probe.", suffix=atomic.TMP_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"\0" * PROBE_BYTES)
                handle.flush()
                os.fsync(handle.fileno())
        finally:
            os.unlink(probe)
        free = shutil.disk_usage(out).free
    except OSError as error:
        reason = error.strerror or str(error)
        template = OUT_FULL if error.errno in FULL_ERRNOS else OUT_UNWRITABLE
        raise UserError(template.format(out=out, reason=reason)) from None
    needed = count * BYTES_PER_STUDENT + PROBE_BYTES
    if free < needed:
        raise UserError(OUT_TOO_SMALL.format(out=out, free=_size(free), count=count, needed=_size(needed)))
    for name in CLASS_FILES:
        if (out / name).is_dir():
            raise UserError(OUT_BLOCKED.format(path=out / name, name=name))


def _check_temp() -> None:
    """The run's temporary folder can be made, and (as root, when children drop to an unprivileged user)
    every folder above it lets that user pass to the workspaces inside."""
    from grader.sandbox.host import preflight

    try:
        root = scratch.root()
    except OSError as error:
        raise UserError(TEMP_UNWRITABLE.format(tmp=tempfile.gettempdir(), reason=error.strerror or error)) from None
    user = preflight.unprivileged_user()
    blocking = preflight.blocking_folder(root) if user is not None else None
    if blocking is not None:
        raise UserError(TEMP_UNREACHABLE.format(tmp=root.parent, user=preflight.user_name(user), folder=blocking))
    try:  # made once here, under the run's own folder, and handed to every worker
        preflight.readable_stdlib(str(root))
    except OSError as error:
        raise UserError(STDLIB_UNREADABLE.format(user=preflight.user_name(user),
                                                 stdlib=preflight.stdlib_dir(), tmp=root,
                                                 reason=error.strerror or error)) from None


def _size(count: int) -> str:
    return f"{count / (1 << 20):.1f} MiB" if count >= 1 << 20 else f"{count >> 10} KiB"


def _run(entries, warnings, out, jobs, limits, bar, stdout, stderr, exercises=None, pictures=True) -> int:
    from grader import curriculum
    from grader.runner import discover as discover_checks

    from . import worker

    exercise_ids = curriculum.ids() if exercises is None else tuple(exercises)
    try:
        for exercise in exercise_ids:
            discover_checks(exercise)
    except Exception as error:
        print(f"attnkit grade: the grader's checks could not be loaded ({type(error).__name__}: {error}); "
              "nothing was graded.", file=stderr)
        return 1
    scratch.sweep()  # what runs killed with SIGKILL left in the temp dir (and in the short socket folders' place)
    if os.path.realpath(scratch.SHORT_BASE) != os.path.realpath(tempfile.gettempdir()):
        scratch.sweep(Path(scratch.SHORT_BASE))
    version = records.grader_version() + ("" if exercises is None else f" exercises={','.join(exercise_ids)}")
    tasks, skipped = [], 0
    for entry in entries:
        try:
            digest = content_hash(entry)
        except OSError as error:  # graded anyway: the worker reports the unreadable file to the student
            digest = f"unreadable: {error}"
        if records.up_to_date(out, entry.student, digest, version):
            skipped += 1
        else:
            tasks.append(worker.Task(entry, digest, out, version, exercise_ids))
    errors: dict[str, str] = {}
    with progress_view.make(len(tasks), bar, stderr) as shown:
        if skipped:
            shown.note(f"{skipped} of {len(entries)} submissions up to date in {out}, skipped")
        if tasks:
            status = _grade_all(tasks, min(jobs, len(tasks)), limits, shown, errors, out, len(entries), skipped)
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
    try:
        text = summary.write_all(out, results, exercise_ids, errors, warnings, pictures=pictures,
                                 handed_in={e.student: e.duplicates() for e in entries if e.ignored})
    except OSError as error:
        print("attnkit grade: " + SUMMARY_UNWRITABLE.format(out=out, reason=error.strerror or error,
                                                           records=records.record_dir(out)), file=stderr)
        return 1
    print(text, end="", file=stdout)
    print(f"wrote {out / 'grades.csv'}, {out / 'summary.txt'}, {out / 'report.html'} and one <student>.json per "
          "student", file=stdout)
    return 1 if errors else 0


def _grade_all(tasks, jobs, limits, shown, errors, out, total, skipped) -> int | None:
    from grader.sandbox.host import preflight

    timeout, memory_mb, student_timeout = limits
    root = scratch.root()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["attnkit.grade.worker"])
    previous, tempfile.tempdir = tempfile.tempdir, str(scratch.socket_folder())
    try:  # a forkserver started now keeps its socket folder in there: under root, or a short path of its own
        counter, current = context.Value("i", 0), context.SimpleQueue()
        stdlib = preflight.readable_stdlib(str(root))  # made by _check_temp: the same copy for every worker
        pool = context.Pool(jobs, initializer=start_worker, initargs=(str(root), timeout, memory_mb << 20, counter,
                                                                      student_timeout, current, stdlib))
    finally:
        tempfile.tempdir = previous
    try:
        # a submission whose grading found the temp folder's disk full is graded again once the others are done
        # (the hand-in that filled it has been removed by then): a classmate never fails for another's files
        retry = _grade_round(pool, tasks, current, shown, errors, last=False)
        _grade_round(pool, retry, current, shown, errors, last=True)
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


def _grade_round(pool, tasks, current, shown, errors, *, last: bool) -> list:
    """Grade ``tasks`` in the pool; the tasks to grade again (their disk was full), unless this is the ``last``
    round (then that is an error of the grader's, retried by the next run)."""
    from . import worker

    by_student = {task.entry.student: task for task in tasks}
    again = []
    results = pool.imap_unordered(worker.grade, tasks, chunksize=1)
    for _ in tasks:
        while True:  # while waiting, show who is being graded (a slow student is named, not the last one)
            try:
                finished = results.next(timeout=SHOW_EVERY)
                break
            except multiprocessing.TimeoutError:
                _show_current(current, shown)
                shown.tick()
        _show_current(current, shown)
        if finished.status == worker.DISK_FULL and not last:
            again.append(by_student[finished.student])
            continue
        if finished.status in (worker.FAILED, worker.DISK_FULL):
            errors[finished.student] = finished.message
        shown.advance(finished.student, finished.score, finished.max_score, finished.status)
    return again


def _show_current(current, shown) -> None:
    while not current.empty():
        shown.grading(current.get())


def start_worker(root: str, *args) -> None:
    """Pool initializer: the worker's temporary folders go under this run's ``root``; then
    :func:`attnkit.grade.worker.initialize` with ``args``."""
    from . import worker

    tempfile.tempdir = root
    worker.initialize(*args)
