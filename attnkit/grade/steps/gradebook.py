"""Class step ``gradebook``: the class files written from the records in OUTDIR (``grades.csv``,
``summary.json``, ``summary.txt``, ``report.html``, the PNGs): every student of the class, graded by this run or
an earlier one. A student the grader failed on (no record, or one this version cannot read back) gets a row
saying so; a re-run retries them.
"""
from __future__ import annotations

from .. import records, summary
from ..state import Course, Stop

SUMMARY_UNWRITABLE = ("cannot write the class files in {out} ({reason}); every graded student is saved in {records}. "
                      "Fix that (free some space?) and run the same command again: graded submissions are skipped.")


def gradebook(course: Course) -> Course:
    """``course`` with its summary's text (and its errors, with the students whose record is missing)."""
    results = []
    for entry in course.entries:
        if entry.student in course.errors:
            continue
        data = records.load(course.out, entry.student)
        if data is None:
            course.errors[entry.student] = "no result was written"
            continue
        read = records.result(data)
        if read is None:
            course.errors[entry.student] = "its record could not be read back (damaged, or written by another version)"
            continue
        results.append(read)
    try:
        course.text = summary.write_all(course.out, results, course.exercises, course.errors, course.warnings,
                                        pictures=course.options.pictures,
                                        handed_in={e.student: e.duplicates() for e in course.entries if e.ignored})
    except OSError as error:
        raise Stop(SUMMARY_UNWRITABLE.format(out=course.out, reason=error.strerror or error,
                                             records=records.record_dir(course.out))) from None
    return course
