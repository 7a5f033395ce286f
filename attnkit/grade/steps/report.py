"""Submission step ``report``: the hand-in's files in OUTDIR, each written atomically: its Gradescope
``<student>.json`` first, then its record ``.attnkit/<student>.json`` last, as the commit marker (a run killed
between the two grades the hand-in again). What differs between two gradings of the same hand-in (the time
each check took) is dropped first, so the files are the same every time (the grading session has already taken
its private paths out of messages and notes).
"""
from __future__ import annotations

from grader import atomic
from grader.results import SubmissionResult

from .. import gradescope_results, records
from ..state import Submission, needed


def report(state: Submission) -> Submission:
    """Write ``state``'s result; returns ``state``."""
    task, result = state.task, needed(state.result, "the result", "report")
    normalize(result)
    atomic.write_json(records.gradescope_path(task.out, task.entry.student), gradescope_results.results_json(result))
    record = result.to_dict()
    record["submission_hash"] = task.submission_hash
    record["grader_version"] = task.version
    atomic.write_json(records.record_path(task.out, task.entry.student), record)  # last: the commit marker
    return state


def normalize(result: SubmissionResult) -> None:
    """Drop what differs between two gradings of the same submission: the time each check took."""
    for exercise in result.exercises:
        for check in exercise.checks:
            check.seconds = 0.0
