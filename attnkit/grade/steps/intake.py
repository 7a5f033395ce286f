"""Submission step ``intake``: the hand-in's ``.py`` files unpacked (a zip) or copied (a folder) into a private
scratch folder, within the caps of :mod:`attnkit.grade.submissions`; a hand-in that cannot be graded as handed in
(a symbolic link, a zip bomb, a corrupt zip, too many entries...) is refused: the reason is kept and no check runs.

A full disk (ENOSPC, EDQUOT) is not the student's doing: it propagates, and the run grades the hand-in again.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from ..state import Submission
from ..submissions import SubmissionProblem, extract_zip, stage_folder


def intake(state: Submission) -> Submission:
    """``state`` with its scratch folder (``<scratch>/unpacked`` holds the modules) and its intake, or a refusal."""
    entry = state.task.entry
    state.scratch = Path(tempfile.mkdtemp(prefix="attnkit-grade-"))
    unpacked = state.scratch / "unpacked"
    unpacked.mkdir()
    try:
        if entry.kind == "symlink":
            raise SubmissionProblem(f"{entry.path.name} is a symbolic link")
        state.intake = extract_zip(entry.path, unpacked) if entry.kind == "zip" else stage_folder(entry.path, unpacked)
    except SubmissionProblem as problem:
        state.refusal = str(problem)
    return state
