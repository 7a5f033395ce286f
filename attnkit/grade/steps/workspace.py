"""Submission step ``workspace``: where the unpacked modules are: down through lone wrapper folders
(``handin/``, ``submission-3/``), then into ``exercises/`` when there is one."""
from __future__ import annotations

from ..state import Submission, needed
from ..submissions import package_root


def workspace(state: Submission) -> Submission:
    """``state`` with its modules' folder (a refused hand-in has none)."""
    from grader.runner import modules_dir_of

    if state.refusal is None:
        unpacked = needed(state.scratch, "the scratch folder", "workspace") / "unpacked"
        state.modules = modules_dir_of(package_root(unpacked))
    return state
