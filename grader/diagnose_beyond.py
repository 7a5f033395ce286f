"""The mechanisms beyond a function's own catalogue, in the order a failing check tries them (cheapest first):

1. its other settings (``grader.diagnose_setting``);
2. the reference's result read another way: transposed, only the leading part of an axis right
   (``grader.diagnose_values``, no code runs);
3. the call rerun on the reference, changed: another scale, an input cut short (``grader.diagnose_rerun``);
4. another known variant of a shared piece (``grader.alternatives``);
5. the mistakes of the shared pieces the function uses (registered mistakes by concept);
6. two of its own mistakes at once (``grader.diagnose_pairs``).

Stages 1-4 and 6 stop when the next try would end after :data:`EXTRA_SECONDS` of this thread's CPU time (judged
by the slowest try so far; time spent building mistaken references is not counted, so a cold process names what a
warm one does, nor time in the garbage collector, so a process holding many objects names what a fresh one does; and
CPU time, not wall time, so a loaded machine names what an idle one does). The
shared pieces' mistakes are registered mistakes like the function's own and are always tried to the end: a
concept's diagnosis never depends on the machine's speed. The results of mistaken references are memoised by a
digest of the call (``grader.mistaken.memo_call``): a class asks the same questions again and again.

:func:`rank` then runs the student's function again at another number of leading axes when nothing, or only a
shape or numpy-error family, explained the failure (``grader.diagnose_rank``): two more calls in the sandbox, for
calls of at most :data:`RANK_LIMIT` argument entries (a memory check's large call is not run again).
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import (
    alternatives,
    budget_clock,
    diagnose_pairs,
    diagnose_rank,
    diagnose_rerun,
    diagnose_setting,
    diagnose_values,
    mistaken,
    mistakes,
)
from .compare import CheckFailed
from .interfaces import ReferenceKind
from .mistakes.model import Mistake
from .sandbox import StudentError

if TYPE_CHECKING:
    from .diagnosis import Recorded, Session

EXTRA_SECONDS = 0.035
RANK_LIMIT = 2**14  # entries of a call's arguments above which the student's function is not run again (memory checks)


def _stages(session: "Session", call: "Recorded", got: np.ndarray, reference: Any, own: list, dtype_only: bool):
    """(run or None for a reading of the reference's result, its compute, the family it is named as, bounded)."""
    for run, compute in session._settings(call):
        yield run, compute, diagnose_setting.named, True
    if not dtype_only:
        yield None, lambda: diagnose_values.explain(got, reference), None, True
    for run, compute in reruns(session, call):
        yield run, compute, diagnose_rerun.named, True
    for run, module, patch in alternatives.reaching(call.module):
        yield run, lambda module=module, patch=patch, run=run: session._rerun(
            run, call, mistaken.patched_reference(run.id, module, patch, call.module)), alternatives.named, True
    for mistake in mistakes.reaching(call.module):  # a shared piece's mistake, made inside this function
        yield mistake, None, None, False
    if session.reference.kind is ReferenceKind.LIVE:
        for pair in diagnose_pairs.pairs(own, got, reference):  # two at once: computed here, never recorded
            yield pair, lambda pair=pair: session._rerun(pair, call), None, True


def extra(session: "Session", call: "Recorded", got: np.ndarray, reference: Any, tried: Callable, own: list,
          dtype_only: bool) -> Mistake | None:
    """The first stage's mistake that explains ``got`` (``tried(mistake, compute)`` says whether one does)."""
    slowest, deadline = 0.0, budget_clock.clock() + EXTRA_SECONDS
    for run, compute, family, bounded in _stages(session, call, got, reference, own, dtype_only):
        began = budget_clock.clock()
        if bounded and began + slowest > deadline:
            continue
        if run is None:        # a reading of the reference's own result: no code runs
            found = compute() if isinstance(reference, np.ndarray) and got.shape == reference.shape else None
        elif tried(run, lambda run=run, compute=compute: session._mistaken(run, call, compute)):
            found = family(run) if family is not None else run
        else:
            found = None
        if found is not None:
            return found
        if bounded:
            slowest = max(slowest, budget_clock.clock() - began)
    return None


def reruns(session: "Session", call: "Recorded") -> list[tuple[Mistake, Callable[[], Any]]]:
    """The call rerun on the reference with changed arguments (``grader.diagnose_rerun``)."""
    if call.stateful:
        return []
    owner = getattr(session.reference, call.module)
    signature = diagnose_setting.signature(call.module, call.function)
    try:
        runs = diagnose_rerun.variants(signature, _plain(call.args), _plain(call.kwargs))
    except Exception:  # arguments the rules cannot change (a shape they did not foresee): no rerun
        return []
    function = call.runs(getattr(owner, call.function))
    return [(run, partial(function, *args, **kwargs)) for run, args, kwargs in runs]


def rank(session: "Session", failure: AssertionError, impl: Any, found: Mistake | None) -> Mistake | None:
    """When ``found`` is no diagnosis or a shape or numpy-error family: the failing call made again with one
    leading axis fewer and one more, on the student's function (``impl``) and the reference. When the student's
    code is right at another rank, that is the diagnosis (``shape_rank_dependent``), or, after a numpy error's
    family, said next to the failing line's explanation; else ``found``."""
    if (found is not None and not found.id.startswith(("shape_", "error_"))) or (
            isinstance(failure, StudentError) and failure.sibling):
        return found   # named already, or raised in another exercise's module: not this exercise's code to rerun
    if isinstance(failure, CheckFailed):
        origin = session.origin_of(failure.origin)
        call = origin[0] if origin is not None else None
    elif isinstance(failure, StudentError):
        call = next((c for c in reversed(session.calls) if c.name == failure.function), None)
    else:
        call = None
    if call is None or call.stateful or _size((call.args, call.kwargs)) > RANK_LIMIT:
        return found
    if isinstance(failure, CheckFailed) and diagnose_rank.agrees(failure.got, failure.expected):
        return found  # right here by the tolerance other ranks are judged by: a matter of precision, not of rank
    signature = diagnose_setting.signature(call.module, call.function)
    names = dict(enumerate(signature.parameters)) if signature is not None else {}
    try:
        student = call.runs(getattr(getattr(impl, call.module), call.function))
        reference = call.runs(getattr(getattr(session.reference, call.module), call.function))
    except Exception:  # a front end without that function: no rerun
        return found
    with np.errstate(all="ignore"):
        ranked = diagnose_rank.explain(student, reference, call.args, call.kwargs, names)
    if ranked is None:
        return found
    if found is not None and found.id.startswith("error_"):  # the failing line's family, with the ranks that work
        return replace(found, looks_like=f"{found.looks_like}; {ranked.looks_like}")
    return ranked


def _size(value: Any) -> int:
    if isinstance(value, np.ndarray):
        return value.size
    if isinstance(value, dict):
        return sum(_size(item) for item in value.values())
    return sum(_size(item) for item in value) if isinstance(value, (tuple, list)) else 0


def _plain(value: Any) -> Any:
    from .diagnosis import _real

    return _real(value)
