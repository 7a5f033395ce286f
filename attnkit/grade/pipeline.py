"""``attnkit grade`` as a listed pipeline: its steps, in order, in one place (as nbgrader lists its preprocessors).

::

    the class (this process)        find -> plan ---------------------------------------------> gradebook
                                                   |  each hand-in to grade, in a worker       ^
                                                   v                                           |
    one hand-in (a grading worker)     intake -> workspace -> session -> result -> report -----+  (its record)

Every step is a function of one module of :mod:`attnkit.grade.steps` with one signature (``state -> state``,
:class:`attnkit.grade.state.Step`): the class steps take and return the :class:`~attnkit.grade.state.Course`, the
hand-in's the :class:`~attnkit.grade.state.Submission`. :mod:`attnkit.grade.run` drives them: the worker pool,
the second round for hand-ins that met a full disk, Ctrl-C, progress; :mod:`attnkit.grade.worker` runs
:data:`SUBMISSION_STEPS` on each task.
"""
from __future__ import annotations

from grader import files

from .state import Course, State, Step, Submission, Task
from .steps.find import find
from .steps.gradebook import gradebook
from .steps.intake import intake
from .steps.plan import plan
from .steps.report import report
from .steps.result import result
from .steps.session import session
from .steps.workspace import workspace

BEFORE_GRADING: tuple[Step[Course], ...] = (
    find,        # options, SUBMISSIONS and OUTDIR checked; one entry per student (user errors: nothing graded)
    plan,        # the checks loaded, every hand-in hashed, the ones up to date skipped (resume)
)
SUBMISSION_STEPS: tuple[Step[Submission], ...] = (
    intake,      # unpacked into a private folder, or refused
    workspace,   # where the modules are
    session,     # every check of the course, in the sandbox's children
    result,      # the checks' results and the notes, or the refusal
    report,      # the Gradescope JSON, then the record (the commit marker)
)
AFTER_GRADING: tuple[Step[Course], ...] = (
    gradebook,   # grades.csv, summary.json, summary.txt, report.html from every record
)


def run_steps(state: State, steps: tuple[Step[State], ...]) -> State:
    """``state`` through ``steps``, in order."""
    for step in steps:
        state = step(state)
    return state


def grade_submission(task: Task, steps: tuple[Step[Submission], ...] = SUBMISSION_STEPS) -> Submission:
    """One hand-in through ``steps``; its scratch folder is removed however they end."""
    state = Submission(task)
    try:
        return run_steps(state, steps)
    finally:
        if state.scratch is not None:
            files.remove(state.scratch)
