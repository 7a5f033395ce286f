"""The sandbox as front ends use it: one :class:`Sandbox` per process, one :class:`GradingSession` per submission.

``Sandbox`` owns the zygote (started early by :func:`~.launch.launch` for ``attnkit check``, or here), its
:class:`~.limits.Limits` and the CPU its children run on; ``GradingSession`` owns one submission's private
workspace, its time budgets and what its children made the grader notice (:class:`SubmissionReport`). A front end
opens both and hands the session to ``grader.runner``; it never wires a zygote, a workspace or a transport itself::

    with Sandbox(Limits(timeout=2.0)) as sandbox:
        with sandbox.session(modules_dir) as session:
            results = run_submission(session, exercises, own_siblings=False)
        session.report.notes
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

from ...results import Note
from . import kept_bytecode
from .affinity import pin_with, pinned
from .callbacks import Siblings
from .errors import StudentError
from .launch import Launched
from .limits import Limits
from .proxy import Implementation
from .spawner import Zygote
from .workspace import Workspace, strip_paths


@dataclass(frozen=True)
class SubmissionReport:
    """What one submission's children made the grader notice, workspace paths removed.

    ``notes``: a :class:`grader.results.Note` each (too slow, printed too much, missing module...), in the order
    first seen, each once; ``seconds``: the seconds of requests spent per exercise (what the time budgets count)."""

    notes: tuple[Note, ...] = ()
    seconds: dict[str, float] = field(default_factory=dict)


class Sandbox:
    """One zygote for this process: every submission's children are forked from it, under ``limits``.

    ``launched``: a zygote :func:`~.launch.launch` started earlier (``attnkit check`` starts it before importing
    numpy); ``stdlib``: a copy of the standard library children may read (:func:`~.preflight.prepare`)."""

    def __init__(self, limits: Limits | None = None, *, stdlib: str | None = None, launched: Launched | None = None):
        self.zygote = Zygote(limits, stdlib, launched)

    def session(self, modules_dir: str | Path, keep_bytecode: bool = False) -> GradingSession:
        """A session for the submission whose modules are in ``modules_dir`` (copied into a private workspace);
        ``keep_bytecode``: see :class:`GradingSession`."""
        return GradingSession(self.zygote, Path(modules_dir), keep_bytecode)

    def pin(self, index: int = 0) -> int | None:
        """This process and every child on its ``index``-th CPU from now on; returns the CPU (None: no affinity)."""
        return pin_with(self.zygote, index)

    def pinned(self, index: int = 0):
        """:meth:`pin` for the duration of a ``with`` block; this process's CPUs are restored after it."""
        return pinned(self.zygote, index)

    def close(self) -> None:
        """Stop the zygote, which kills every child still running."""
        self.zygote.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class GradingSession:
    """One submission: its private copy and scratch dir, the time its exercises spent, the notes its children
    gave, and a fresh child per :meth:`implementation`. Closing it waits for the children it released and
    removes its files."""

    def __init__(self, zygote: Zygote, modules_dir: Path, keep_bytecode: bool = False):
        """``keep_bytecode`` (``attnkit check`` and ``watch``): the bytecode of the submission's modules is kept
        beside them between sessions (:mod:`.kept_bytecode`)."""
        self.zygote = zygote
        self.modules_dir = Path(modules_dir)
        self.workspace = Workspace(modules_dir, zygote.user)
        self.keep_bytecode = keep_bytecode
        self.placed: set[str] = set()  # the modules whose kept bytecode was put in the workspace
        if keep_bytecode:
            workspace = self.workspace
            self.placed = kept_bytecode.place(self.modules_dir, workspace.submission, workspace.bytecode, zygote.user)

    def implementation(self, exercise: str, module: str | None = None,
                       siblings: Siblings | None = None) -> Implementation:
        """A fresh child for ``exercise`` (its module imported first, ``module`` if not the exercise's own); with
        ``siblings``, the functions of the other exercises' modules are answered by the reference."""
        return self.zygote.implementation(self.workspace, exercise, module, siblings)

    def import_failure(self, exercise: str, module: str) -> StudentError | None:
        """Why ``module`` does not import in a child of ``exercise`` (None when it does); the child is closed."""
        implementation = self.implementation(exercise, module)
        try:
            return implementation.import_failure
        finally:
            implementation.close()

    def share_budgets(self, exercises: tuple[str, ...]) -> None:
        """Open the time budgets of ``exercises`` before several threads spend them at once (no key is added
        while the lanes sum them)."""
        self.workspace.spent.update(dict.fromkeys(exercises, 0.0))

    def strip_paths(self, text: str) -> str:
        """``text`` without this machine's private workspace paths (they differ from one grading to the next)."""
        return strip_paths(text)

    @property
    def report(self) -> SubmissionReport:
        notes = tuple(replace(note, detail=strip_paths(note.detail)) for note in self.workspace.problems)
        return SubmissionReport(notes, dict(self.workspace.spent))

    def close(self) -> None:
        if self.keep_bytecode:
            self.workspace.settle()  # no child may still write there
            kept_bytecode.keep(self.modules_dir, self.workspace.submission, self.workspace.bytecode, self.placed)
        self.workspace.close()

    def __enter__(self) -> GradingSession:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextmanager
def graded(modules_dir: str | Path, limits: Limits | None = None) -> Iterator[GradingSession]:
    """A sandbox of its own for one submission (``attnkit show gpt``, ``attnkit pack``): the zygote lives as long
    as the session."""
    with Sandbox(limits) as sandbox, sandbox.session(modules_dir) as session:
        yield session

