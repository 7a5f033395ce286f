"""Record what the reference and its classic mistakes return to the public checks.

The checks run unchanged, through the single executor: ``ref`` answers from a
:class:`RecordingReference`, which calls the reference solutions and records every result. It
also tells ``grader.diagnosis`` to evaluate every classic mistake registered for the function
right after each call (its ``kind`` is ``RECORDING``) and records those outputs too (``mistaken``), so
the release can diagnose a student's wrong value without shipping any solution code.
Objects the reference returns (a ``KVCache``) are recorded as a :class:`grader.calls.Handle`
named by their history, their method calls like any other call.
"""
from __future__ import annotations

import importlib
import inspect
from string import Template
from typing import Any, Callable

import numpy as np

from grader import curriculum
from grader.calls import Call, Handle, Namespace, Unencodable, encode
from grader.interfaces import Reference, ReferenceKind
from grader.mistakes import model, of_exercise
from grader.results import CheckResult
from grader.runner import CheckSpec, discover, execute

from .recording import FORMAT
from .replay import NEAR_LIMIT, handles, mistake_key, moved_on, recorded_key, shapes, token

MISTAKE_LIMIT = 1 << 14  # mistakes are recorded for results of at most this many elements
PLAIN = (np.ndarray, np.generic, int, float, complex, bool, str, type(None), tuple, list, dict)


def elements(tree: Any) -> int:
    """How many array elements a recorded value holds."""
    if isinstance(tree, dict):
        own = int(np.prod(tree["shape"])) if tree.get("t") in ("array", "scalar") else 0
        return own + sum(elements(value) for value in tree.values())
    if isinstance(tree, list):
        return sum(elements(value) for value in tree)
    return 0


class RecordingError(Exception):
    """The recording cannot be made (a non-deterministic or unrecordable reference call)."""


def public_checks() -> list[CheckSpec]:
    """Every check that is not visibility="hidden", in learning-path order."""
    return [spec for exercise in curriculum.ids() for spec in discover(exercise) if spec.visibility != "hidden"]


class Recorder:
    """Calls and arrays, in the format of :class:`attnkit.release.recording.Store`."""

    def __init__(self):
        self.calls: dict[str, dict] = {}
        self.arrays: dict[str, np.ndarray] = {}
        self.functions: dict[str, str] = {}

    def key(self, space: str, call: Call) -> tuple[str, list, dict]:
        """(the call's key as the replay finds it, its tree, the arrays the tree names)."""
        inputs: dict = {}
        try:
            tree = call.tree(space, inputs, token)
            key = recorded_key(space, call)
        except Unencodable as error:
            raise RecordingError(f"cannot record {call.module}.{call.function}: {error}") from None
        return key, tree, inputs

    def add(self, key: str, tree: list, inputs: dict, result: dict) -> None:
        """Record a reference call; its arguments (and their shapes, ``replay.shapes``) are kept for near matches
        when their arrays are small."""
        space, module, function = tree[:3]
        previous = self.calls.get(key)
        if previous is not None and previous["result"] != result:
            raise RecordingError(f"{module}.{function} returned two different values for the same arguments")
        entry = {"space": space, "module": module, "function": function, "result": result}
        if sum(a.size for a in inputs.values()) <= NEAR_LIMIT:
            self.arrays.update(inputs)
            entry["near"] = {"shapes": shapes(tree), "args": tree}
        self.calls[key] = entry
        self.functions[f"{space}:{module}.{function}"] = result["kind"]

    def node(self, value: Any) -> dict:
        try:
            return encode(value, self.arrays, token)
        except Unencodable as error:
            raise RecordingError(f"cannot record a reference result: {error}") from None

    def index(self) -> dict:
        return {"format": FORMAT, "numpy": np.__version__, "calls": self.calls, "functions": self.functions}


class RecordedObject(Handle):
    """An object a reference call returned: its method calls are recorded like any other call."""

    def __init__(self, reference: "RecordingReference", module: str, real: Any, history: str):
        super().__init__(module, type(real).__name__, history)
        self._reference, self._real = reference, real

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._real, name)
        if name.startswith("_") or not callable(value):
            return value
        method = f"{self._class}.{name}"
        return lambda *args, **kwargs: self._reference.call(Call(self._module, method, (self, *args), kwargs))


def unwrapped(value: Any) -> Any:
    """``value`` with every recorded object replaced by the real one (in tuples, lists and dicts too)."""
    if isinstance(value, RecordedObject):
        return value._real
    if type(value) in (tuple, list):
        return type(value)(unwrapped(item) for item in value)
    if type(value) is dict:
        return {key: unwrapped(item) for key, item in value.items()}
    return value


class RecordingReference(Namespace):
    """``ref`` for recording: calls the reference solutions and records each result and each mistake's."""

    kind = ReferenceKind.RECORDING

    def __init__(self, recorder: Recorder, reference: Reference):
        self._recorder, self._reference = recorder, reference

    def resolve(self, module: str, function: str) -> None:
        self._reference.resolve(module, function)

    def call(self, call: Call) -> Any:
        """``call`` answered by the reference (the real objects in place of recorded ones) and recorded."""
        recorder = self._recorder
        key, tree, inputs = recorder.key("ref", call)
        result = self._reference.call(Call(call.module, call.function, unwrapped(call.args), unwrapped(call.kwargs)))
        moved_on(handles(call.args, call.kwargs), key)
        if isinstance(result, PLAIN):
            node = recorder.node(result)
        else:
            node = {"t": "new", "class": type(result).__name__}
            result = RecordedObject(self, call.module, result, f"{key}/new")
        recorder.add(key, tree, inputs, {"kind": "value", "value": node})
        call.key = key
        return result

    def mistaken(self, call: Call, mistake: model.Mistake, compute: Callable[[], Any]) -> Any:
        """A mistake's output for ``call``, computed and recorded (or recorded as undefined).

        Not for a call whose result has more than ``MISTAKE_LIMIT`` elements (a memory check's
        large output): those are left undiagnosed rather than recorded once per mistake.
        """
        key = call.key or ""
        if elements(self._recorder.calls[key]["result"]) > MISTAKE_LIMIT:
            raise RecordingError(f"{mistake.id}: not recorded for a result this large")
        name = mistake_key(mistake.id, key)
        module = self._recorder.calls[key]["module"]   # stored with the call it was recorded for
        entry = {"space": "mistakes", "module": module, "function": mistake.id}
        try:
            value = compute()
        except Exception as error:
            self._recorder.calls[name] = dict(entry, result={"kind": "raises", "error": type(error).__name__,
                                                             "message": str(error)[:200]})
            raise
        self._recorder.calls[name] = dict(entry, result={"kind": "value", "value": self._recorder.node(value)})
        return value


def record(make_impl: Callable[[str], Any], reference: Reference,
           specs: list[CheckSpec]) -> tuple[Recorder, list[CheckResult]]:
    """Run ``specs`` on the reference implementation, recording every reference call and mistake output."""
    recorder = Recorder()
    ref = RecordingReference(recorder, reference)
    outcomes = [execute(spec, make_impl(spec.exercise), ref) for spec in specs]
    return recorder, outcomes


RELEASED_MISTAKES = '''"""$title

Student release: the source changes that build each mistaken reference are left out (they hold
solution lines); what every mistake returns for the public checks' calls was recorded
(``grader/recorded/``).
"""
from __future__ import annotations

import numpy as np  # noqa: F401  (for the functions below)

from .model import Mistake
$functions
$constants
'''


def released_mistakes(exercise: str) -> str | None:
    """Source of the release's ``grader/mistakes/<exercise>.py``: the Mistake constants without their
    patches, and the module's functions (``compute`` ones, helpers a check asks); None without mistakes."""
    if not of_exercise(exercise):
        return None
    module = importlib.import_module(f"grader.mistakes.{exercise}")
    constants = {name: value for name, value in vars(module).items() if isinstance(value, model.Mistake)}
    functions = "".join(f"\n\n{inspect.getsource(value)}" for value in vars(module).values()
                        if inspect.isfunction(value) and value.__module__ == module.__name__)
    shown = "\n".join(
        f"{name} = Mistake(\n    id={m.id!r},\n    functions={m.functions!r},\n    looks_like={m.looks_like!r},\n"
        f"    hint={m.hint!r},\n" + (f"    compute={m.compute.__name__},\n" if m.compute else "") + ")"
        for name, m in constants.items())
    title = (module.__doc__ or f"Classic {exercise} mistakes.").strip().splitlines()[0]
    return Template(RELEASED_MISTAKES).substitute(title=title, functions=functions, constants="\n" + shown)
