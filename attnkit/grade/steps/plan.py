"""Class step ``plan``: the checks loaded, what killed runs left in the temp dir removed, every hand-in hashed,
and the ones whose record is up to date skipped (how a run resumes after Ctrl-C, a kill or a full disk).

A record is up to date when it carries the hand-in's hash and the grader's version (with the course, when it
is a subset of the curriculum), and the student's Gradescope file exists (:func:`attnkit.grade.records.up_to_date`).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .. import records, scratch
from ..state import Course, Stop, Task
from ..submissions import content_hash


def plan(course: Course) -> Course:
    """``course`` with its exercises, the tasks left to grade and how many hand-ins were up to date."""
    from grader import curriculum
    from grader.runner import discover as discover_checks

    subset = course.options.exercises
    course.exercises = curriculum.ids() if subset is None else tuple(subset)
    try:
        for exercise in course.exercises:
            discover_checks(exercise)
    except Exception as error:
        raise Stop(f"the grader's checks could not be loaded ({type(error).__name__}: {error}); "
                   "nothing was graded.") from None
    scratch.sweep()  # what runs killed with SIGKILL left in the temp dir (and in the short socket folders' place)
    if os.path.realpath(scratch.SHORT_BASE) != os.path.realpath(tempfile.gettempdir()):
        scratch.sweep(Path(scratch.SHORT_BASE))
    version = records.grader_version() + ("" if subset is None else f" exercises={','.join(course.exercises)}")
    course.tasks, course.skipped = [], 0
    for entry in course.entries:
        try:
            digest = content_hash(entry)
        except OSError as error:  # graded anyway: the intake step reports the unreadable file to the student
            digest = f"unreadable: {error}"
        if records.up_to_date(course.out, entry.student, digest, version):
            course.skipped += 1
        else:
            course.tasks.append(Task(entry, digest, course.out, version, course.exercises))
    return course
