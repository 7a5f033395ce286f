"""Name the classic mistake behind a failing comparison.

The executor makes one :class:`Session` per check run and hands its ``ref`` to the check. That
``ref`` is the reference (real, recording or replaying) with every call written down: the
function, its arguments and what came back. When a comparison fails, the expected value (or the
``origin`` a check passed for a printed value) is found among those results by identity (they are
read-only arrays, or parts of a returned tuple, list or dict), which gives the reference call that produced it.
Every mistake registered for that function (``grader.mistakes``) is then tried on the same call:

* a ``patch`` mistake re-runs the call on its *mistaken reference*, the exercise's solution module
  with the patch applied, loaded as a fresh module whose sibling imports are the real reference
  (calls on objects the reference returned, such as a ``KVCache``, are replayed in order on the
  mistaken module's own objects);
* a ``compute`` mistake is asked directly, with the call, the student's value and the reference's.

The first mistake whose output explains the student's value (``grader.compare.explains``: it
matches at the diagnostic tolerance and differs from the reference's) is the diagnosis. When the
student's code raised instead (``StudentRaised``), the latest reference call of the same function
stands for the call the student got (checks ask ``ref`` first), and the first mistake whose mistaken
reference raises the same exception, with the same words and numbers (shapes included) in its
message, is the diagnosis; failing that, the first whose ``raises`` names that exception (with the
``looks_like`` given there).

The reference (``grader.interfaces.Reference``) answers for patch mistakes with ``mistaken(call, mistake,
compute)``: live, it computes; the student release's recording records what it computed, its replay reads it. A
recording reference gets every registered mistake evaluated right after each call.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Iterable

import numpy as np

from . import diagnose_beyond, diagnose_error, diagnose_setting, diagnose_shape, draws, mistaken, mistakes
from .calls import Call, Namespace, Unencodable, array_digest, class_name
from .compare import CheckFailed, explains
from .interfaces import MistakeUndefined, Reference, ReferenceKind
from .memo import MISSING, Memo
from .mistaken import mistaken_reference
from .mistakes import generic
from .mistakes.model import Mistake
from .sandbox import LEAVES, StudentError

DIAGNOSES = Memo(16 * 2**20)   # diagnoses of wrong answers, across the students a process grades (below)
DIAGNOSIS_BYTES = 512          # what one kept diagnosis is charged: its key and a mistake (most are shared)
EXTRA_LIMIT = 2**16  # entries (arguments and result) above which a call gets its own mistakes only (memory checks)
PLAIN = (np.ndarray, np.generic, int, float, complex, bool, str, bytes, type(None), tuple, list, dict)


@dataclass(eq=False)
class Recorded(Call):
    """One call the check made through ``ref``, written down: its place among them and what came back (an object
    the reference returned, such as a ``KVCache``, is a :class:`RefObject` in its arguments and result)."""

    index: int = 0
    created: bool = False                 # it returned an object (replayed for stateful calls)
    drawing: bool = False                 # it holds a random generator: each run gets a copy (``grader.draws``)
    result: Any = field(default=None, repr=False)
    holds_object: bool | None = field(default=None, repr=False)   # its arguments hold one (None: not looked yet)

    @cached_property
    def stateful(self) -> bool:
        if self.holds_object is None:
            self.holds_object = _holds_object((self.args, self.kwargs))
        return self.created or self.holds_object

    @cached_property
    def digest(self) -> bytes | None:
        """The call's digest (:attr:`grader.calls.Call.digest`); for a call that draws, the digest of its canonical
        tree with each generator's state when the check made the call: every run of it starts from that state, so
        what the runs return is memoised as any call's is (None when it also holds an object)."""
        if not self.drawing:
            return super().digest
        try:
            return bytes.fromhex(self.identity("drawn", None, lambda value: None)[0])
        except Unencodable:
            return None

    def runs(self, function: Callable) -> Callable:
        """``function`` as it may run this call again: on copies of the generators it holds (``grader.draws``)."""
        return draws.alone(function) if self.drawing else function


class RefObject:
    """An object the reference returned (a ``KVCache``): method calls go through the session."""

    def __init__(self, session: "Session", real: Any, call: Recorded):
        self._session, self._real, self._call = session, real, call

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._real, name)
        if not callable(value) or name.startswith("_"):
            return value
        method = f"{class_name(self._real)}.{name}"
        return lambda *args, **kwargs: self._session.call(Call(self._call.module, method, (self, *args), kwargs))

    def __len__(self) -> int:
        return len(self._real)


class RecordingRef(Namespace):
    """The ``ref`` fixture of one check run: ``ref.softmax.softmax(x)``, every call written down."""

    def __init__(self, session: "Session"):
        self._session = session

    def call(self, call: Call) -> Any:
        return self._session.call(call)

    def resolve(self, module: str, function: str) -> None:
        self._session.reference.resolve(module, function)


class Session:
    """The calls of one check run, and the mistake diagnosis they allow."""

    def __init__(self, reference: Reference):
        self.reference = reference
        self.calls: list[Recorded] = []
        self.origins: dict[int, tuple[Recorded, tuple]] = {}   # id(result or part) -> (call, path)
        self.ref = RecordingRef(self)

    # -- the ref fixture --------------------------------------------------------------
    def call(self, made: Call) -> Any:
        """``made`` answered by the reference and written down (a wrapper around the reference's ``call``)."""
        held = _holds_object((made.args, made.kwargs))   # one walk of the arguments, for the call and stateful
        asked = Call(made.module, made.function, _real(made.args), _real(made.kwargs)) if held else made
        drawing = draws.holds((made.args, made.kwargs))
        args, kwargs = (draws.copied(made.args), draws.copied(made.kwargs)) if drawing else (made.args, made.kwargs)
        result = self.reference.call(asked)   # draws from the check's generators; the recorded call keeps their state
        call = Recorded(made.module, made.function, args, kwargs, asked.key, len(self.calls), drawing=drawing,
                        holds_object=held)
        self.calls.append(call)
        if not isinstance(result, PLAIN):
            call.created = True
            result = RefObject(self, result, call)
        call.result = result
        self._trace(result, call, ())
        if self.reference.kind is ReferenceKind.RECORDING:  # every registered mistake's output, recorded with it
            with np.errstate(all="ignore"):
                for mistake in self._candidates(call):
                    if mistake.compute is None:
                        try:
                            self._mistaken(mistake, call)
                        except Exception:  # undefined for this input: the reference noted it
                            pass
        return result

    def _trace(self, value: Any, call: Recorded, path: tuple) -> None:
        if isinstance(value, (np.ndarray, np.generic, float)):   # a number: a loss
            self.origins[id(value)] = (call, path)
        elif isinstance(value, (tuple, list)):
            self.origins[id(value)] = (call, path)
            for index, item in enumerate(value):
                self._trace(item, call, (*path, index))
        elif isinstance(value, dict):      # a tree of arrays (a model's parameters or gradients)
            for key, item in value.items():
                self._trace(item, call, (*path, key))

    # -- diagnosis ----------------------------------------------------------------------
    def origin_of(self, value: Any) -> tuple[Recorded, tuple] | None:
        """(reference call, path inside its result) that produced ``value``, or None."""
        found = self.origins.get(id(value))
        if found is None or _part(found[0].result, found[1]) is not value:
            return None
        return found

    def diagnose(self, failure: AssertionError) -> Mistake | None:
        """The first registered mistake whose output matches the student's value (or error), or None.

        ``failure`` is a :class:`CheckFailed`, or a ``StudentRaised`` from the sandbox (its
        ``error_type``, ``function`` and ``error_message``); anything else gets None.
        """
        if not isinstance(failure, CheckFailed):
            return self._diagnose_error(failure)
        got = failure.got
        if isinstance(got, (int, float, np.generic)) and not isinstance(got, bool):
            got = np.asarray(got)  # a number (a loss): judged as the 0-d array it is, as any array result
        found = self.origin_of(failure.origin)
        if isinstance(got, np.ndarray) and found is None and failure.shape is not None:
            return diagnose_shape.explain(got.shape, failure.shape, {})  # a value the check built: shapes alone
        if not isinstance(got, np.ndarray) or found is None:
            return None
        call, path = found
        key = self._memo_key(call, "value", path, array_digest(got), failure.dtype_only) if got.dtype.kind in "biuf" \
            else None
        return self._memoised(key, lambda: self._first_match(call, path, got, failure.dtype_only))

    def _memo_key(self, call: Recorded, *facts: Any) -> tuple | None:
        """The key of a diagnosis in :data:`DIAGNOSES`: the call's digest and the facts about the student's answer
        it depends on; None where it is not kept (a call that holds an object, a reference that records or
        replays: what the diagnosis reads there is the session's own)."""
        if self.reference.kind is not ReferenceKind.LIVE or call.stateful or call.digest is None:
            return None
        return (call.digest, *facts)

    def _memoised(self, key: tuple | None, diagnose: Callable[[], Mistake | None]) -> Mistake | None:
        found: Any = MISSING if key is None else DIAGNOSES.get(key)
        if found is MISSING:
            with np.errstate(all="ignore"):
                found = diagnose()
            if key is not None:
                DIAGNOSES.put(key, found, size=DIAGNOSIS_BYTES)
        return found

    def diagnose_rank(self, failure: AssertionError, impl: Any, found: Mistake | None) -> Mistake | None:
        """``found``, or code that works for one number of leading axes only (``grader.diagnose_beyond.rank``)."""
        return diagnose_beyond.rank(self, failure, impl, found)

    def _first_match(self, call: Recorded, path: tuple, got: np.ndarray, dtype_only: bool = False) -> Mistake | None:
        """The first mistake that explains ``got`` (a mistake that makes no difference on this input
        explains nothing, e.g. float32 rounding): the function's own mistakes, then the mechanisms beyond them
        (``grader.diagnose_beyond``), then the shape of the result."""
        reference = _part(call.result, path)
        singles = []

        def tried(mistake: Mistake, compute: Callable[[], Any]) -> bool:
            try:
                candidate = _part(compute(), path)
            except Exception:  # a mistake undefined for this input is no diagnosis, never a grader error
                return False
            singles.append((mistake, candidate))
            return explains(got, candidate, reference, dtype_only)

        for mistake in self._candidates(call):
            if tried(mistake, self._answer_of(mistake, call, got, reference)):
                return mistake
        if _elements((call.result, *call.args, *call.kwargs.values())) > EXTRA_LIMIT:  # a memory check's call
            return None
        found = diagnose_beyond.extra(self, call, got, reference, tried, list(singles), dtype_only)
        if found is not None:
            return found
        if dtype_only and isinstance(reference, np.ndarray) and got.dtype != reference.dtype:
            return replace(generic.DTYPE_CHANGED, looks_like=(
                f"the values are right but {reference.dtype} input came back {got.dtype}: a step of this function "
                f"changed the dtype"))
        if isinstance(reference, np.ndarray) and got.shape != reference.shape:
            signature = diagnose_setting.signature(call.module, call.name)
            arguments = diagnose_shape.named_arguments(signature, _real(call.args), _real(call.kwargs))
            return diagnose_shape.explain(got.shape, reference.shape, arguments)
        return None

    def _answer_of(self, mistake: Mistake, call: Recorded, got: np.ndarray, reference: Any) -> Callable[[], Any]:
        """What ``mistake`` returns for ``call``, to be computed: asked of its ``compute``, or of the reference."""
        compute = mistake.compute
        if compute is not None:
            return lambda: compute(call, got, reference)
        return lambda: self._mistaken(mistake, call)

    def _settings(self, call: Recorded) -> list[tuple[Mistake, Callable[[], Any]]]:
        """The call rerun on the reference under its other settings (``grader.diagnose_setting``)."""
        if call.stateful:
            return []
        owner = getattr(self.reference, call.module)  # not written down: the reference's own namespace

        def rerun(args: tuple, kwargs: dict) -> Callable[[], Any]:
            return lambda: call.runs(getattr(owner, call.function))(*args, **kwargs)

        try:
            runs = diagnose_setting.variants(call.module, call.function, _real(call.args), _real(call.kwargs))
        except Exception:  # an argument the rules cannot pair up (shapes that do not broadcast): no other setting
            return []
        return [(run, rerun(args, kwargs)) for run, args, kwargs in runs]

    def _diagnose_error(self, failure: AssertionError) -> Mistake | None:
        """A registered mistake that raises as the student's code did, else the numpy error family of the
        failing line (``grader.diagnose_error``)."""
        if not isinstance(failure, StudentError):
            return None
        return self._registered_error(failure) or diagnose_error.explain(
            failure.error_type, failure.error_message, failure.where, failure.line, failure.names)

    def _registered_error(self, failure: StudentError) -> Mistake | None:
        error_type, function = failure.error_type, failure.function
        call = next((c for c in reversed(self.calls) if c.name == function), None)
        if not error_type or call is None:
            return None
        message = failure.error_message
        key = self._memo_key(call, "raised", error_type, message.split("\n", 1)[0])
        return self._memoised(key, lambda: self._raising_like(call, error_type, message))

    def _raising_like(self, call: Recorded, error_type: str, message: str) -> Mistake | None:
        """The first mistake whose mistaken reference raises ``error_type`` with the words of ``message`` for
        ``call``, else the first whose ``raises`` names that exception."""
        wanted = (error_type, error_words(message))
        candidates = self._candidates(call)
        for mistake in (*candidates, *mistakes.reaching(call.module)):
            if mistake.compute is not None:
                continue
            try:
                self._mistaken(mistake, call)
            except MistakeUndefined as error:   # recorded as raising (the release)
                if (error.error_type, error_words(error.error_message)) == wanted:
                    return mistake
            except Exception as error:
                if (type(error).__name__, error_words(str(error))) == wanted:
                    return mistake
        first_line = message.split("\n", 1)[0]
        return next((replace(mistake, looks_like=looks_like) for mistake in candidates
                     for kind, pattern, looks_like in mistake.raises
                     if kind == error_type and re.search(pattern, first_line)), None)

    def _candidates(self, call: Recorded) -> tuple[Mistake, ...]:
        """The mistakes to try for ``call``: all registered ones but those only a check names (a mutant alone).

        In the student release the patches are left out, and the recorded outputs stand in for them.
        """
        return mistakes.for_function(call.module, call.name)

    def _mistaken(self, mistake: Mistake, call: Recorded, compute: Callable[[], Any] | None = None) -> Any:
        """What the mistaken reference (or ``compute``) returns for ``call``, as the reference answers it (live it
        computes, recording it records, replaying it reads the recording)."""
        return self.reference.mistaken(call, mistake, compute or (lambda: self._rerun(mistake, call)))

    def _rerun(self, mistake: Mistake, call: Recorded, namespace: dict | None = None) -> Any:
        """``call`` rerun on the mistake's mistaken reference (or on ``namespace``, a patched reference)."""
        namespace = namespace or mistaken_reference(mistake.id, call.module)
        if not call.stateful:  # memoised: a class makes the same calls again and again
            return mistaken.memo_call(mistake.id, call.runs(getattr(namespace[call.module], call.function)), call)
        objects: dict[int, Any] = {}   # index of the creating call -> the mistaken reference's object
        result = None
        for earlier in self.calls[: call.index + 1]:
            if not earlier.stateful:
                continue
            args = _mapped(earlier.args, objects)
            kwargs = _mapped(earlier.kwargs, objects)
            if earlier.method:   # the object is the first argument
                result = earlier.runs(getattr(args[0], earlier.name))(*args[1:], **kwargs)
            else:
                result = earlier.runs(getattr(namespace[earlier.module], earlier.function))(*args, **kwargs)
            if earlier.created:
                objects[earlier.index] = result
        return result


def error_words(message: str) -> tuple[str, ...]:
    """The words and numbers of an error message's first line, without punctuation or where it happened."""
    line = re.sub(r"\([\w./-]+\.py, line \d+\)", "", message.split("\n", 1)[0])
    return tuple(re.findall(r"[a-z_]+|\d+", line.lower()))


def _holds_object(value: Any) -> bool:
    """True when ``value`` is, or holds in its tuples, lists and dicts, an object the reference returned (a list of
    ``KVCache``s, one per layer, makes a call stateful). The common leaves (arrays, numbers) are passed over by
    their exact type, without a call each: a parameter tree of tens of arrays is one loop per dict."""
    if isinstance(value, RefObject):
        return True
    items: Iterable[Any]
    if isinstance(value, (tuple, list)):
        items = value
    elif isinstance(value, dict):
        items = value.values()
    else:
        return False
    return any(_holds_object(v) for v in items if type(v) not in LEAVES)


def _mapped(value: Any, objects: dict) -> Any:
    """``value`` with every object the reference returned replaced by the mistaken reference's own (``objects``:
    index of the creating call -> object), in tuples, lists and dicts too."""
    if isinstance(value, RefObject):
        return objects[value._call.index]
    if isinstance(value, (tuple, list)):
        return type(value)(_mapped(v, objects) for v in value)
    if isinstance(value, dict):
        return {k: _mapped(v, objects) for k, v in value.items()}
    return value


def _real(value: Any) -> Any:
    if type(value) is np.ndarray:  # most arguments, first
        return value
    if isinstance(value, RefObject):
        return value._real
    if isinstance(value, (tuple, list)):
        return type(value)(_real(v) for v in value)
    if isinstance(value, dict):
        return {k: _real(v) for k, v in value.items()}
    return value


def _elements(value: Any) -> int:
    if isinstance(value, np.ndarray):
        return value.size
    return sum(_elements(item) for item in value[:64]) if isinstance(value, (tuple, list)) else 0


def _part(value: Any, path: tuple) -> Any:
    for index in path:
        value = value[index]
    return value
