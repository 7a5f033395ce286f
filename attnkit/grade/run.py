"""``attnkit grade``: the driver of the pipeline (:mod:`attnkit.grade.pipeline` lists the steps).

The class steps before grading (user errors: one line, exit 2, nothing graded; the hand-ins up to date skipped),
then the hand-ins left, each through the submission steps in one of ``jobs`` worker processes (each writes its
own results atomically; a hand-in that met a full disk is graded again after the others), then the class steps
after grading. Ctrl-C stops the workers; what is written stays written, and a re-run resumes.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

from grader import atomic
from grader.sandbox import MEMORY_MB, STUDENT_SECONDS, TIMEOUT_SECONDS

from . import pipeline, records, scratch
from . import progress as progress_view
from .state import Course, Options, Stop

__all__ = ["STUDENT_SECONDS", "main", "start_worker"]

SHOW_EVERY = 0.5                  # seconds between updates of who is being graded


def main(submissions: Path, out: Path, jobs: int | None = None, timeout: float = TIMEOUT_SECONDS,
         memory_mb: int = MEMORY_MB, progress: bool | None = None, *,
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
    options = Options(jobs, timeout, memory_mb, student_timeout, progress, exercises, pictures)
    course = Course(Path(submissions), Path(out), options)
    try:
        course = pipeline.run_steps(course, pipeline.BEFORE_GRADING)
        with progress_view.make(len(course.tasks), progress, stderr) as shown:
            if course.skipped:
                shown.note(f"{course.skipped} of {len(course.entries)} submissions up to date in {out}, skipped")
            if course.tasks and not _grade_all(course, shown):
                return 130
        course = pipeline.run_steps(course, pipeline.AFTER_GRADING)
    except Stop as stop:
        print(f"attnkit grade: {stop}", file=stderr)
        return stop.status
    print(course.text, end="", file=stdout)
    print(f"wrote {course.out / 'grades.csv'}, {course.out / 'summary.txt'}, {course.out / 'report.html'} and one "
          "<student>.json per student", file=stdout)
    return 1 if course.errors else 0


def _grade_all(course: Course, shown) -> bool:
    """Grade ``course.tasks`` in a pool of workers (their failures into ``course.errors``); False when
    interrupted (what was written stays, the message says how to resume)."""
    from grader.sandbox import prepare_machine

    options, tasks, out = course.options, course.tasks, course.out
    jobs = min(options.jobs or os.cpu_count() or 1, len(tasks))
    root = scratch.root()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["attnkit.grade.worker"])
    previous, tempfile.tempdir = tempfile.tempdir, str(scratch.socket_folder())
    try:  # a forkserver started now keeps its socket folder in there: under root, or a short path of its own
        counter, current = context.Value("i", 0), context.SimpleQueue()
        stdlib = prepare_machine(root)  # made by the find step: the same copy for every worker
        pool = context.Pool(jobs, initializer=start_worker,
                            initargs=(str(root), options.timeout, options.memory_mb << 20, counter,
                                      options.student_timeout, current, stdlib))
    finally:
        tempfile.tempdir = previous
    try:
        # a submission whose grading found the temp folder's disk full is graded again once the others are done
        # (the hand-in that filled it has been removed by then): a classmate never fails for another's files
        retry = _grade_round(pool, tasks, current, shown, course.errors, last=False)
        _grade_round(pool, retry, current, shown, course.errors, last=True)
        pool.close()
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        atomic.sweep(out)
        atomic.sweep(records.record_dir(out))
        saved = sum(records.up_to_date(out, t.entry.student, t.submission_hash, t.version) for t in tasks)
        shown.note(f"\ninterrupted: {course.skipped + saved} of {len(course.entries)} submissions are graded and "
                   f"saved in {out}. Run the same command again to resume; graded submissions are skipped.")
        return False
    pool.join()
    return True


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
