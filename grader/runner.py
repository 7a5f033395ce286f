"""Run the checks of one exercise against one implementation and collect the results.

The same check functions run under pytest (``grader.pytest_plugin``); this runner calls them
directly, without pytest's start-up cost, for ``attnkit check`` and ``attnkit grade``.
Fixtures are the fixed set ``impl``, ``ref`` and ``rng`` (docs/ARCHITECTURE.md).
"""
from __future__ import annotations

import errno
import importlib
import inspect
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import curriculum
from .blame import blame_callers, blockers, cascade_suspects, unname_cascades
from .calls import Call
from .checks import marks as checks_marks
from .checks.marks import PROPERTIES
from .compare import CheckFailed, values_held
from .diagnosis import Session
from .interfaces import Reference
from .lanes import in_lanes
from .proven import Proof
from .reference import reference as reference_solutions
from .results import DIAGNOSED, SAMPLE, CheckResult, ExerciseResult, Status, WrongValue
from .sandbox import (
    LENT_CLASSES,
    GradingSession,
    Implementation,
    Siblings,
    StudentError,
    StudentNotImplemented,
    StudentRaised,
)

FIXTURES = ("impl", "ref", "rng")
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
NOT_IMPLEMENTED_MESSAGE = "not implemented yet"
HELD_MESSAGE = ("held: {event} (the value checks of task {task} say how); this check judges {what} alone and "
                "scores once the values are right")


@dataclass(frozen=True)
class CheckSpec:
    exercise: str
    name: str
    title: str
    task: int
    points: float
    visibility: str
    function: Callable
    fixtures: tuple[str, ...]
    heavy: bool = False
    rule: str = "values"


def check_module_name(exercise: str) -> str:
    return f"grader.checks.check_{exercise}"


@lru_cache(maxsize=None)
def discover(exercise: str) -> tuple[CheckSpec, ...]:
    """The checks of one exercise, in the order they are defined in its file."""
    module = importlib.import_module(check_module_name(exercise))
    specs = []
    for name, function in vars(module).items():
        if not (name.startswith("test_") and inspect.isfunction(function)):
            continue
        marks = checks_marks.of(function)
        if marks is None:
            raise TypeError(f"{module.__name__}.{name} has no @check(points=...) decorator")
        parameters = tuple(inspect.signature(function).parameters)
        unknown = set(parameters) - set(FIXTURES)
        if unknown:
            raise TypeError(f"{module.__name__}.{name} asks for unknown fixtures {sorted(unknown)}")
        title = _first_line(function.__doc__) or name
        specs.append(CheckSpec(exercise, name, title, marks.task, marks.points, marks.visibility, function, parameters,
                               marks.heavy, marks.rule))
    specs.sort(key=lambda spec: spec.function.__code__.co_firstlineno)
    return tuple(specs)


def _first_line(doc: str | None) -> str:
    """A check's title: the first line of its docstring that holds anything, stripped (``inspect.getdoc`` dedented
    the whole docstring for it, for every check before the first exercise started: 4 ms of each ``attnkit check``)."""
    for line in (doc or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def seed_for(exercise: str, name: str) -> int:
    """The seed of a check's ``rng``: a stable hash of its name (never the clock)."""
    return zlib.crc32(f"{exercise}.{name}".encode())


def execute(spec: CheckSpec, impl: Any, reference: Reference | None = None, hold: bool = True,
            diagnose: bool = True) -> CheckResult:
    """Run one check: the single executor of every front end (check, grade, pytest, nbgrader, release).

    ``impl`` is the implementation under test (a sandboxed child, a notebook's globals, or the
    reference itself when the release is recorded); ``reference`` is what ``ref`` answers from:
    the real memoised reference solutions (the default), or the release's recording or replaying
    reference. Every outcome becomes a :class:`CheckResult`; nothing propagates.

    A property check (``spec.rule`` other than ``"values"``) judges its property alone: wrong values of its
    calls make it ``HELD`` (0 points, one line) unless its property is wrong too, which fails it with a message
    about the property only. ``hold=False`` fails it on its wrong values as a value check would
    (:func:`run_exercise`, when no value check of the exercise saw them).
    """
    session = Session(reference_solutions() if reference is None else reference)
    values = {"impl": impl, "ref": session.ref, "rng": np.random.default_rng(seed_for(spec.exercise, spec.name))}
    result = CheckResult(spec.exercise, spec.name, spec.title, spec.task, 0.0, spec.points, Status.PASSED,
                         visibility=spec.visibility)
    start = time.perf_counter()
    held: list[CheckFailed] = []
    try:
        with np.errstate(all="ignore"), values_held(hold and spec.rule != "values") as held:
            spec.function(**{name: values[name] for name in spec.fixtures})
        if held:
            _hold(result, spec, held[0])
        else:
            result.points = spec.points
    except StudentNotImplemented as failure:
        result.blocked_by = _exercise_of(failure.sibling, spec.exercise)
        if failure.sibling:  # this exercise is written, but calls a sibling that is not (yet)
            result.status, result.message = Status.FAILED, failure.message
        else:
            result.status, result.message = Status.NOT_IMPLEMENTED, f"{NOT_IMPLEMENTED_MESSAGE}: {failure.message}"
    except (CheckFailed, StudentRaised) as failure:  # a wrong value, or an exception: both diagnosed
        compared = failure if isinstance(failure, CheckFailed) else None
        if hold and spec.rule != "values" and ((compared is not None and compared.rule == "values") or (
                isinstance(failure, StudentRaised) and not failure.sibling)):
            _hold(result, spec, failure)  # no usable result (no array, a wrong shape, an exception): not judged
            result.seconds = time.perf_counter() - start
            return result
        result.status, result.message = Status.FAILED, failure.message
        result.blocked_by = _exercise_of(failure.sibling if isinstance(failure, StudentRaised) else "",
                                         spec.exercise)
        diagnosis = None if compared is None else compared.diagnosis  # named by the check itself: free
        if diagnosis is None and not held and diagnose:  # with wrong values held, the message is the property's
            diagnosis = session.diagnose_rank(failure, impl, session.diagnose(failure))
        if compared is not None and compared.dtype_only and not held and diagnose:
            diagnosis = _promoting_dependency(spec.exercise, impl, reference) or diagnosis
        result.discrete = compared is not None and _discrete(compared.got)
        if diagnosis is not None:
            result.mistake, result.hint = diagnosis.id, diagnosis.hint
            result.message += f"{DIAGNOSED}{diagnosis.looks_like}"
        elif not held and diagnose:
            result.wrong = wrong_value(failure)
    except StudentError as failure:
        result.status, result.message = Status.FAILED, failure.message
        result.blocked_by = _exercise_of(failure.sibling, spec.exercise)
    except AssertionError as failure:
        result.status, result.message = Status.FAILED, str(failure) or f"{spec.title}: failed"
    except OSError as failure:
        if failure.errno in DISK_FULL:  # the grading machine's disk, not this check: the caller grades it again
            raise
        result.status = Status.GRADER_ERROR
        result.message = f"internal grader error in {spec.name} ({type(failure).__name__}: {failure}); please report it"
    except Exception as failure:  # a bug on the trusted side: say so, never blame the student
        result.status = Status.GRADER_ERROR
        result.message = f"internal grader error in {spec.name} ({type(failure).__name__}: {failure}); please report it"
    result.seconds = time.perf_counter() - start
    return result


def _hold(result: CheckResult, spec: CheckSpec, failure: AssertionError) -> None:
    """A property check whose calls returned wrong values or raised: 0 points, said in one line (the value checks
    explain)."""
    if isinstance(failure, StudentRaised):
        event = f"{failure.call or failure.function} raised {failure.error_type or 'an exception'}"
    else:
        event = f"{str(failure).split(chr(10), 1)[0].partition(' returned ')[0]} returned wrong values"
    result.status, result.points = Status.HELD, 0.0
    result.message = HELD_MESSAGE.format(event=event, task=spec.task, what=PROPERTIES.get(spec.rule, spec.rule))


def _promoting_dependency(exercise: str, impl: Any, reference: Any):
    from .promotion import promoting_dependency

    try:
        return promoting_dependency(exercise, impl, reference)
    except Exception:  # a front end whose impl cannot reach the other exercises (a notebook): no such diagnosis
        return None


def wrong_value(failure: AssertionError) -> WrongValue | None:
    """The fingerprint of an undiagnosed wrong value (None unless the check compared an array it got)."""
    if not isinstance(failure, CheckFailed):
        return None
    got = failure.got
    if not isinstance(got, np.ndarray) or got.dtype.kind not in "fiub" or failure.dtype_only:
        return None
    flat = got.reshape(-1)
    places = np.unique(np.linspace(0, flat.size - 1, min(SAMPLE, flat.size)).astype(np.int64)) if flat.size else \
        np.zeros(0, np.int64)
    sample = [float(v) if np.isfinite(v) else str(float(v)) for v in flat[places].astype(np.float64)]
    first = failure.message.split("\n", 1)[0]
    call, _, difference = first.partition(" returned ")
    return WrongValue(call, list(got.shape), got.dtype.name, sample, difference.partition(": ")[2] or difference)


def _discrete(value: Any) -> bool:
    """Whether a wrong value is discrete (integers or booleans: token ids, a mask), not real numbers."""
    if isinstance(value, (bool, int, np.bool_, np.integer)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind in "biu"


def _exercise_of(module: str, own: str) -> str:
    """The exercise whose module ``module`` is, when it is not ``own``'s (empty otherwise)."""
    if not module:
        return ""
    other = next((e.id for e in curriculum.exercises() if e.id == module), "")
    return "" if other == own else other


def run_exercise(exercise: str, make_impl: Callable[[str], Implementation], *,
                 visibility: str | None = None, keep_printed: bool = False,
                 started: Implementation | None = None, prove: bool = False,
                 diagnose_all: bool = True) -> ExerciseResult:
    """Run every check of ``exercise``; a fresh ``make_impl(exercise)`` after a child dies. ``keep_printed``:
    keep what the student's code printed (``ExerciseResult.printed``); ``started``: its first child, started
    ahead of it (:func:`grader.lanes.in_lanes`). ``prove`` (``attnkit grade``): the checks run in
    :class:`grader.proven.Proof`'s order, and each own function whose checks have all passed is then run by the
    child as the student wrote it when the module's other functions call it (not answered by the reference);
    the results keep the checks' own order. ``diagnose_all=False`` (``attnkit check`` without ``--all``): only the
    failures that may be the one shown are diagnosed (:func:`shown_first`); the others keep their plain message."""
    curriculum.get(exercise)  # KeyError with the known ids for a typo
    impl = started
    outcome = ExerciseResult(exercise)

    def retire(impl: Implementation) -> None:  # a child's last word: the siblings the reference answered for it
        outcome.reference_siblings |= impl.siblings_called
        impl.close()
        if keep_printed:
            text, size = impl.own_output()
            outcome.printed = (outcome.printed[0] + text, outcome.printed[1] + size)

    def alive() -> Implementation:
        nonlocal impl
        if impl is None or impl.dead:
            if impl is not None:
                retire(impl)
            impl = make_impl(exercise)
            if proof is not None and proof.proven:  # a new child runs what its predecessor was told it may
                impl.trust_own(sorted(proof.proven))
        return impl

    specs = [spec for spec in discover(exercise) if visibility is None or spec.visibility == visibility]
    module_name = curriculum.get(exercise).id
    proof = Proof.of(specs, module_name, _public_functions(module_name)) if prove else None
    results: list[CheckResult | None] = [None] * len(specs)
    first_task: int | None = None  # the lowest task of a check that did not pass (held checks aside) so far
    for index in proof.order if proof is not None else range(len(specs)):
        diagnose = diagnose_all or shown_first(specs[index].task, first_task)
        result = results[index] = execute(specs[index], alive(), diagnose=diagnose)
        if result.status not in (Status.PASSED, Status.HELD):
            first_task = result.task if first_task is None else min(first_task, result.task)
        proved = proof.ran(index, result.status == Status.PASSED) if proof is not None else []
        if proved and impl is not None and not impl.dead:
            impl.trust_own(proved)
    outcome.checks = [result for result in results if result is not None]
    if not any(c.status == Status.FAILED and s.rule == "values" for c, s in zip(outcome.checks, specs)):
        for index, spec in enumerate(specs):  # wrong values no value check saw: the check that saw them says so
            if outcome.checks[index].status == Status.HELD:
                outcome.checks[index] = execute(spec, alive(), hold=False)
    if impl is not None:
        retire(impl)
    return outcome


@lru_cache(maxsize=None)
def reference_siblings(exercise: str, trusted: frozenset = frozenset()):
    """What ``attnkit grade`` answers with the reference in ``exercise``'s child: the public functions of the
    reference modules of ``exercise``'s prerequisites only (``depends_on`` in the curriculum, transitively), and
    the classes the sandbox lends in their place (``KVCache``: ``runtime.LENT_CLASSES``; other classes stay the
    student's), except the functions of the ``trusted`` modules (the student's own ran: they passed every check of
    their exercise); a trusted module's classes are lent still, so that its objects (a KVCache the student's trusted
    gpt makes) cross to the reference answering an untrusted module (block_decode_step) instead of keeping the
    student's own function of that module in the call.
    Any other exercise's module is the student's own code: the reference never answers for an exercise that is
    not one this exercise builds on. While one function of the exercise's own module runs, its other functions
    are answered by the reference too (``Siblings.own``)."""
    functions = {}
    for needed in curriculum.prerequisites(exercise):
        module_name = curriculum.get(needed).id
        names = _public_functions(module_name, lent=True)
        if module_name in trusted:
            names = tuple(name for name in names if name in LENT_CLASSES)
        if names:
            functions[module_name] = names
    return Siblings(functions, _answer_with_reference, _public_functions(curriculum.get(exercise).id))


def shown_first(task: int, first_task: int | None) -> bool:
    """Whether a check of ``task`` that fails now may be the failure ``attnkit check`` shows for its exercise
    (:attr:`grader.results.ExerciseResult.first_failure`: the lowest task, the first to run among equals), given the
    lowest task that already failed (``first_task``, None when none did). Checks run in file order there."""
    return first_task is None or task < first_task


def _public_functions(module_name: str, lent: bool = False) -> tuple[str, ...]:
    """The public functions of a reference module; with ``lent``, also the classes the sandbox lends in their
    place (``runtime.LENT_CLASSES``)."""
    module = importlib.import_module(f"solutions.{module_name}")
    return tuple(name for name, value in vars(module).items()
                 if (inspect.isfunction(value) or lent and inspect.isclass(value) and name in LENT_CLASSES)
                 and value.__module__ == module.__name__ and not name.startswith("_"))


def _answer_with_reference(module: str, name: str, args: tuple, kwargs: dict) -> Any:
    return reference_solutions().call(Call(module, name, args, kwargs))


def sibling_notes(results: list[ExerciseResult]) -> None:
    """Tell each exercise graded with a reference sibling when the student's own sibling fails its checks: its
    visible checks, since the note is shown before grades are published (a hidden check's result never shows)."""
    failing = {curriculum.get(r.exercise).id: r.exercise for r in results
               if r.visible_score < r.visible_max_score}
    for result in results:
        weak = sorted(failing[module] for module in result.reference_siblings if module in failing)
        if weak:
            names = ", ".join(weak)
            result.note = (f"graded with the reference {names}; your {names} "
                           f"{'fails its' if len(weak) == 1 else 'fail their'} own checks")


def run_submission(session: GradingSession, exercises: tuple[str, ...] | None = None, *,
                   visibility: str | None = None, own_siblings: bool = True, lanes: int = 1,
                   keep_printed: bool = False, diagnose_all: bool = True) -> list[ExerciseResult]:
    """Grade the submission of ``session`` (its private copy of the student's modules), a child per exercise.

    ``own_siblings=False`` (``attnkit grade``): each exercise is graded on its own code, its calls of other
    exercises' functions answered by the reference (:func:`reference_siblings`), except the functions of an
    exercise graded before it in this run at full marks (the student's own code passed all its checks: it
    runs, without the round trips); ``True`` (``attnkit check``): the student's own siblings run, so a broken
    softmax shows in attention with "fix that exercise first".

    ``lanes`` > 1 (``own_siblings`` only, where no exercise's grading depends on another's result): that many
    exercises are checked at once, each by a thread of this process talking to its own child; the checks and
    the reference stay in this process, the results keep the curriculum's order. No message holds the session's
    private paths. ``diagnose_all=False``: only each exercise's first failure is diagnosed (:func:`run_exercise`)."""
    passed: set[str] = set()  # modules whose exercise got full marks so far
    chosen = tuple(exercises or curriculum.ids())

    def make_impl(exercise: str) -> Implementation:
        siblings = None if own_siblings else reference_siblings(exercise, frozenset(passed))
        return session.implementation(exercise, siblings=siblings)

    def run_one(exercise: str, started: Implementation | None = None) -> ExerciseResult:
        return run_exercise(exercise, make_impl, visibility=visibility, keep_printed=keep_printed, started=started,
                            prove=not own_siblings, diagnose_all=diagnose_all)

    results = []
    if lanes > 1 and own_siblings and len(chosen) > 1:
        reference_solutions()
        session.share_budgets(chosen)
        done = in_lanes(run_one, longest_first(chosen), lanes, start=make_impl)
        results = [done[exercise] for exercise in chosen]
    for exercise in chosen[len(results):]:
        results.append(run_one(exercise))
        if results[-1].checks and results[-1].score == results[-1].max_score:
            passed.add(curriculum.get(exercise).id)
    unknown = blockers(results)  # a blamed exercise outside the run: does it pass?
    if own_siblings:  # and those a wrong discrete value may come from (a diagnosis of it stands only if they pass)
        unknown |= cascade_suspects(results)
    unknown = unknown - set(chosen)
    if lanes > 1 and own_siblings and len(unknown) > 1:
        session.share_budgets(tuple(unknown))
        done = in_lanes(run_one, longest_first(tuple(unknown)), lanes, start=make_impl)
        verdicts = results + [done[exercise] for exercise in sorted(unknown)]
    else:
        verdicts = results + [run_one(exercise) for exercise in sorted(unknown)]
    for check in (check for result in results for check in result.checks):
        check.message = session.strip_paths(check.message)
    blame_callers(results, {r.exercise for r in verdicts if r.checks and r.first_failure is None})
    if own_siblings:
        unname_cascades(results, {r.exercise for r in verdicts if r.checks and r.first_failure is not None})
    if not own_siblings:
        sibling_notes(results)
    return results


def longest_first(exercises: tuple[str, ...]) -> tuple[str, ...]:
    """The order the lanes take ``exercises`` in, longest first so that the short ones fill the lanes' ends: those
    with a heavy check (a memory check at n in the thousands), then the later ones of the curriculum before the
    earlier (a later exercise runs more code: a model built of the blocks, layers and attention before it)."""
    position = {exercise: index for index, exercise in enumerate(curriculum.ids())}
    return tuple(sorted(exercises, key=lambda exercise: (not any(spec.heavy for spec in discover(exercise)),
                                                         -position[exercise])))


def modules_dir_of(path) -> Path:
    """Where a submission's modules are: ``PATH/exercises`` when it exists, else ``PATH`` itself."""
    path = Path(path)
    return path / "exercises" if (path / "exercises").is_dir() else path
