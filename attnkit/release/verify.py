"""Check a recording before it ships: every public check must run on replayed values alone.

Two runs, both with a strict replay (exact keys only):

* the reference implementation: every public check must pass, with no lookup miss;
* the reference with every float it returns nudged by a relative 1e-12 (1e-6 for float32):
  within every tolerance, so the checks still pass and walk their whole path, but any value
  computed from the student's results has new bytes. A lookup miss here is a check that
  hands ``ref`` something derived from the student's results: the recording
  cannot answer that for a real student, so the build refuses it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from grader.interfaces import CallReport, Transport
from grader.results import CheckResult
from grader.runner import execute
from grader.sandbox import Implementation, StudentError

from .replay import Replay

NUDGE = {np.dtype(np.float64): 1e-12, np.dtype(np.float32): 1e-6, np.dtype(np.float16): 1e-3}


@dataclass
class Verdict:
    """What the two replayed runs found."""

    failures: list[CheckResult] = field(default_factory=list)            # reference run: not passed
    misses: dict[str, list[str]] = field(default_factory=dict)       # "exercise.check" -> calls not recorded
    nudged_failures: list[CheckResult] = field(default_factory=list)     # nudged run: not passed (informative)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.misses


def nudge(value: Any) -> Any:
    """``value`` with every float array scaled by (1 + a tolerance-safe epsilon)."""
    if isinstance(value, np.ndarray) and value.dtype in NUDGE:
        return (value * value.dtype.type(1 + NUDGE[value.dtype])).astype(value.dtype)
    if isinstance(value, tuple):
        return tuple(nudge(v) for v in value)
    if isinstance(value, list):
        return [nudge(v) for v in value]
    if isinstance(value, dict):
        return {k: nudge(v) for k, v in value.items()}
    return value


class NudgingTransport:
    """Wraps a trusted transport (a :class:`grader.interfaces.Transport` too); what comes back is nudged."""

    def __init__(self, inner: Transport):
        self.inner = inner
        self.exercise: str = inner.exercise

    @property
    def report(self) -> CallReport:
        return self.inner.report

    @property
    def dead(self) -> bool:
        return self.inner.dead

    @property
    def siblings_called(self) -> set[str]:
        return self.inner.siblings_called

    @property
    def broken(self) -> StudentError | None:
        return self.inner.broken

    def request(self, op: str, target: dict, args: tuple = (), kwargs: dict | None = None,
                name: str = "", call: object = "") -> Any:
        return nudge(self.inner.request(op, target, args, kwargs, name, call))

    def own_output(self) -> tuple[str, int]:
        return self.inner.own_output()

    def close(self) -> None:
        self.inner.close()


def verify(replay: Replay, make_transport: Callable[[str], Transport], specs: list) -> Verdict:
    """Run ``specs`` twice on replayed values (see the module docstring)."""
    verdict = Verdict()
    ref = replay.reference()
    for nudged in (False, True):
        for spec in specs:
            transport = make_transport(spec.exercise)
            impl = Implementation(NudgingTransport(transport) if nudged else transport)
            replay.misses.clear()
            outcome = execute(spec, impl, ref)
            if replay.misses:
                verdict.misses.setdefault(f"{spec.exercise}.{spec.name}", []).extend(
                    m for m in replay.misses if m not in verdict.misses.get(f"{spec.exercise}.{spec.name}", []))
            if outcome.status != "passed":
                (verdict.nudged_failures if nudged else verdict.failures).append(outcome)
    replay.misses.clear()
    return verdict
