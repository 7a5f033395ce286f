"""The engine's declared interfaces (pytest-hookspec style): what a reference, a transport and a call's report
offer, checked by mypy on ``grader/`` (``tests/test_types.py``). Code that uses one of these reads its declared
members only, never ``getattr(x, "name", default)``.

* :class:`Reference`: what ``ref`` answers from. Live (the solutions, memoised: ``grader.reference``), recording
  (the student release's build: ``attnkit.release.record``) or replaying (the release: ``attnkit.release.replay``).
* :class:`Transport`: one exercise's requests to the student's side (a sandboxed child, or trusted code in this
  process), with the :class:`CallReport` of its last request.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Protocol

from .calls import Call

if TYPE_CHECKING:
    from .mistakes.model import Mistake
    from .sandbox import KernelMemory, StudentError


class ReferenceKind(str, Enum):
    LIVE = "live"              # computes: every mistake can be rerun on it
    RECORDING = "recording"    # computes and records, every registered mistake's output with each call
    REPLAYING = "replaying"    # answers from a recording: only what was recorded


class Reference(Protocol):
    """What ``ref`` answers from (``ref.softmax.softmax(x)`` is ``reference.call(Call(...))``)."""

    kind: ReferenceKind

    def call(self, call: Call) -> Any:
        """The reference's result for ``call``; sets ``call.key`` when the reference names its calls."""

    def resolve(self, module: str, function: str) -> None:
        """AttributeError when the reference has no ``module.function`` (raised where ``ref`` is asked for it)."""

    def mistaken(self, call: Call, mistake: Mistake, compute: Callable[[], Any]) -> Any:
        """What ``mistake`` returns for ``call``, a call this reference answered: ``compute()`` (the mistaken
        reference rerun), recorded with it, or read from a recording (raises when it was undefined there)."""


@dataclass(frozen=True)
class CallReport:
    """What the trusted side measured about one request to the student's side (never what the child says).

    ``mutated``: labels of the arguments the call changed in place (``0``, ``mask``, ``1[0]``), from the bytes of
    the memory shared with the child; ``kernel_memory``: the child's memory around a ``measure`` request, read
    from /proc."""

    mutated: tuple[str, ...] = ()
    kernel_memory: KernelMemory | None = None


NO_REPORT = CallReport()


class MistakeUndefined(Exception):
    """A mistake's output that was undefined for a call (it raised) when it was recorded: what it raised."""

    def __init__(self, mistake_id: str, error_type: str = "", error_message: str = ""):
        super().__init__(f"{mistake_id}: {error_type}: {error_message}")
        self.error_type, self.error_message = error_type, error_message


class Transport(Protocol):
    """One exercise's requests to the student's side."""

    @property
    def exercise(self) -> str:
        """The exercise whose module the requests reach."""

    @property
    def report(self) -> CallReport:
        """What the trusted side measured about the last request."""

    @property
    def siblings_called(self) -> set[str]:
        """The other exercises' modules whose functions the reference answered for the student's code so far."""

    @property
    def broken(self) -> StudentError | None:
        """Why the exercise's module could not be imported: every request raises it (None when it imported)."""

    @property
    def dead(self) -> bool:
        """The student's side is gone (a child that crashed or timed out): the runner makes a new one."""

    def request(self, op: str, target: dict, args: tuple = (), kwargs: dict | None = None,
                name: str = "", call: object = "") -> Any:
        """Send one request (import, call, getattr, len, measure, touch_last_args, plain_cache, generator) and
        return the decoded answer; a :class:`grader.sandbox.StudentError` for the student's failure. ``call`` names
        the call in messages: text, or anything shown by ``str`` (``grader.compare.Restated``: made when shown)."""

    def own_output(self) -> tuple[str, int]:
        """What the student's code printed since the last call of this method (bounded), and its size in bytes."""

    def close(self) -> None:
        """Release the student's side (nothing to release for code in this process)."""
