"""Trusted-side comparisons that fail with messages a student can act on.

Every failure restates the call, what came back and what was expected, shape first::

    softmax(x of shape (2, 3), axis=0) returned shape (3, 2); expected (2, 3)

A wrong value raises :class:`CheckFailed` carrying the student's value (``got``), the expected
one and, when the expected value is not itself a ``ref`` result (a printed document value), the
``ref`` result it stands for (``origin``): ``grader.diagnosis`` traces it back to the reference
call that produced it and tries that function's classic mistakes (``grader.mistakes``).

Tolerances: values are compared with ``numpy.isclose(got, expected, rtol, atol)``; the
defaults are rtol 1e-7, atol 1e-9 for float64 and rtol 1e-4, atol 1e-5 for float32 results.
The float32 atol is torch.testing.assert_close's float32 default: a correct float32 implementation
that sums in another order (loops, einsum) differs from the reference by a few 1e-6 where an output
entry is a small difference of O(1) terms; every classic mistake differs by far more.

Diagnosis compares a wrong value with a mistake's output at a looser *diagnostic* tolerance,
rtol 1e-5, atol 1e-6 for float64 and rtol 1e-3, atol 1e-4 for float32 (the lower precision of
the two values decides): a mistake made in float32, or with another summation order, is still
that mistake. It never decides a pass.

A mistake *explains* a wrong value (:func:`explains`) when its output resembles the student's and
differs from the reference's output at the pass tolerance (a mistake that changes nothing on this input
explains nothing), or, when the student's values are right and only the dtype is wrong, when its
output has the student's dtype.

Values and dtypes are judged apart: :func:`expect_close` compares shapes and values only (unless a
check asks for a dtype), and each exercise scores its results' dtypes in a check of its own
(``grader.checks.common.expect_dtypes``: the right values in the right dtype), so a dtype problem
neither hides a wrong value nor costs the value points. A wrong shape or dtype carries the student's
value as well, so that it can be diagnosed; a dtype failure (``dtype_only``) is explained only by a
mistake that gives the student's dtype.

A property check (dtype, inputs untouched, raises, memory) judges its property alone: while it runs
(:func:`values_held`), a wrong value of a right-shaped result is collected instead of raised, the check goes on,
and the executor reports it *held* (0 points, no second explanation) when its property is right; a wrong
property fails it with a message about that property only.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

import numpy as np

from .mistakes.model import Mistake

TOLERANCES = {np.dtype(np.float64): (1e-7, 1e-9), np.dtype(np.float32): (1e-4, 1e-5),
              np.dtype(np.float16): (1e-2, 1e-3)}
DIAGNOSTIC_TOLERANCES = {np.dtype(np.float64): (1e-5, 1e-6), np.dtype(np.float32): (1e-3, 1e-4),
                         np.dtype(np.float16): (1e-2, 1e-3)}


class CheckFailed(AssertionError):
    """A check's verdict: the student's value is wrong.

    ``diagnosis`` is a classic mistake the check named itself; otherwise ``grader.diagnosis``
    looks for one from ``got``, ``expected`` and ``origin`` (the ``ref`` result ``expected``
    stands for; ``expected`` itself when None). ``what`` names the part ("weights"); ``dtype_only``
    marks a failure of the dtype alone; ``shape`` is the shape that was due when the shape was wrong (known even
    when the expected value was built by the check, not returned by a ``ref`` call). ``rule`` is ``"values"``
    when the comparison helpers below judged the result itself (its type, shape or values) and ``"dtype"`` for
    their dtype verdict; empty for a check's own verdict, which speaks of the check's rule (``@check(rule=...)``).
    """

    def __init__(self, message: str, diagnosis: Mistake | None = None, *, got: Any = None, expected: Any = None,
                 origin: Any = None, what: str = "", dtype_only: bool = False, shape: tuple | None = None,
                 rule: str = ""):
        super().__init__(message)
        self.message = message
        self.diagnosis = diagnosis
        self.got, self.expected, self.what = got, expected, what
        self.origin = expected if origin is None else origin
        self.dtype_only = dtype_only  # the values were not judged: only the dtype is wrong
        self.shape = shape
        self.rule = rule


_held: ContextVar[list | None] = ContextVar("held", default=None)  # the running property check's wrong values


@contextmanager
def values_held(active: bool = True) -> Iterator[list[CheckFailed]]:
    """While a property check runs (``active``), wrong values of a right-shaped result do not stop it: they are
    collected in the list yielded, and the check goes on to judge its own property (its dtype, its inputs left
    untouched, its ValueError, its memory). The single executor then holds its points (``grader.runner``)."""
    held: list[CheckFailed] = []
    token = _held.set(held if active else None)  # per thread: `attnkit check` runs exercises at once
    try:
        yield held
    finally:
        _held.reset(token)


def wrong_value(failure: CheckFailed) -> None:
    """Raise ``failure`` (a wrong value), or, while a property check runs (:func:`values_held`), collect it: the
    check goes on to judge its property (grader.runner.execute)."""
    held = _held.get()
    if held is None:
        raise failure
    held.append(failure)


def describe(value: Any) -> str:
    """A short description of a value: ``array of shape (2, 3) float32``, ``list of 3 items``."""
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} {dtype_text(value.dtype)}"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__} of {len(value)} items"
    if isinstance(value, dict):
        keys = ", ".join(repr(key) for key in list(value)[:8])
        return f"dict with keys {keys}" + (", ..." if len(value) > 8 else "")
    if value is None:
        return "None"
    if isinstance(value, np.generic):
        return f"numpy scalar {value.dtype}"
    return type(value).__name__


def shapes(value: Any, depth: int = 0) -> str:
    """A value with its arrays shown by shape (and dtype unless float64): ``{'weight': (4, 8), 'bias': (8,)}``."""
    if isinstance(value, np.ndarray):
        return str(value.shape) + ("" if value.dtype == np.float64 else f" {dtype_text(value.dtype)}")
    if depth < 4 and isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {shapes(item, depth + 1)}" for key, item in value.items()) + "}"
    if depth < 4 and isinstance(value, list) and len(value) <= 8:
        return "[" + ", ".join(shapes(item, depth + 1) for item in value) + "]"
    return repr(value) if depth < 4 and not isinstance(value, (list, tuple, dict)) else describe(value)


_DTYPE_TEXTS: dict[np.dtype, str] = {}   # str() of the dtypes met (numpy writes it in Python: microseconds a call)


def dtype_text(dtype: np.dtype) -> str:
    """``str(dtype)`` (``float32``), kept for the few dtypes a run meets (at most 64): every restated call of a
    float32 check names it."""
    text = _DTYPE_TEXTS.get(dtype)
    if text is None:
        text = str(dtype)
        if len(_DTYPE_TEXTS) < 64:
            _DTYPE_TEXTS[dtype] = text
    return text


def arg(name: str, value: Any) -> str:
    """How an argument appears in a restated call: arrays by shape and dtype, dicts (parameters) by their arrays'
    shapes when that is short, the rest by repr."""
    if isinstance(value, np.ndarray):
        return f"{name} of shape {value.shape}" + ("" if value.dtype == np.float64 else f" {dtype_text(value.dtype)}")
    if isinstance(value, dict):
        text = shapes(value)
        return f"{name}={text}" if len(text) <= 160 else f"{name} ({describe(value)})"
    return f"{name}={value!r}"


def call_text(function: str, *args: str) -> str:
    """``softmax(x of shape (2, 3), axis=0)`` from the pieces :func:`arg` makes."""
    return f"{function}({', '.join(args)})"


def restate(function: str, args: tuple, kwargs: dict, names: tuple[str, ...] = ()) -> str:
    """A call as the student made it, arrays by shape: ``split_heads(X of shape (3, 4), n_heads=2)`` with the
    parameter ``names`` (:mod:`grader.signatures`), ``split_heads(array of shape (3, 4), 2)`` without them.

    For the sandbox proxy's calls; bounded whatever the arguments.
    """
    def shown(value: Any, name: str = "") -> str:
        if isinstance(value, np.ndarray):
            return arg(name or "array", value)
        if isinstance(value, dict) or isinstance(value, (list, tuple)) and len(value) > 8:
            text = describe(value)         # a parameter tree or a long list: never the repr of every array in it
        else:
            text = repr(value)
            text = text if len(text) <= 40 else describe(value)
        return f"{name}={text}" if name else text

    named = list(names[:len(args)]) + [""] * (len(args) - len(names))
    parts = [shown(a, n) for a, n in zip(args[:8], named)] + [shown(v, k) for k, v in list(kwargs.items())[:8]]
    return f"{function}({', '.join(parts)})"


class Restated:
    """:func:`restate` of a call, made the first time it is shown (``str``, an f-string) and kept: the sandbox's
    requests carry one, and most are answered without a message that names the call (a restated call costs
    microseconds, a round trip's own work a few dozen). Show it while the call is made (every request does, before
    it returns): it reads the arguments then, so a caller that changes one of them in place afterwards would change
    what it shows."""

    __slots__ = ("function", "args", "kwargs", "names", "text")

    def __init__(self, function: str, args: tuple, kwargs: dict, names: tuple[str, ...] = ()):
        self.function, self.args, self.kwargs, self.names = function, args, kwargs, names
        self.text: str | None = None

    def __str__(self) -> str:
        if self.text is None:
            self.text = restate(self.function, self.args, self.kwargs, self.names)
            self.args = self.kwargs = None  # type: ignore[assignment]  # (what it was made of is not kept alive)
        return self.text

    def __repr__(self) -> str:
        return repr(str(self))


def tolerance_for(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) used for results of this dtype."""
    return TOLERANCES.get(np.dtype(dtype), TOLERANCES[np.dtype(np.float64)])


def expect_array(got: Any, *, call: str, shape: tuple | None = None, dtype: Any = None, origin: Any = None,
                 what: str = "") -> np.ndarray:
    """Fail unless ``got`` is a numpy array with the given shape and dtype; returns it.

    ``origin`` is the ``ref`` result the expected shape and dtype come from (for diagnosis).
    """
    if not isinstance(got, np.ndarray):
        wanted = f" of shape {shape}" if shape else ""
        raise CheckFailed(f"{call} returned {describe(got)}; expected a numpy array{wanted}", rule="values")
    if shape is not None and tuple(got.shape) != tuple(shape):
        raise CheckFailed(f"{call} returned shape {got.shape}; expected {tuple(shape)}", got=got, origin=origin,
                          expected=origin, what=what, shape=tuple(shape), rule="values")
    if dtype is not None and got.dtype != np.dtype(dtype):
        why = ("a mask is True where a query may attend" if np.dtype(dtype) == np.bool_ else
               "results keep the input's float dtype; integer input gives float64")
        raise CheckFailed(f"{call} returned dtype {got.dtype}; expected {np.dtype(dtype)} ({why})",
                          got=got, origin=origin, expected=origin, what=what, dtype_only=True, rule="dtype")
    return got


def expect_tuple(got: Any, *, call: str, names: tuple[str, ...]) -> tuple:
    """Fail unless ``got`` is a tuple (or list) of ``len(names)`` items; returns it as a tuple."""
    if not isinstance(got, (tuple, list)) or len(got) != len(names):
        raise CheckFailed(f"{call} returned {describe(got)}; expected a tuple ({', '.join(names)})", rule="values")
    return tuple(got)


def show_scalar(value: Any) -> str:
    """One entry of an array as a student reads it: ``0.7310585786``, ``-inf``, ``nan``, ``True``."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (complex, np.complexfloating)):  # float() would drop the imaginary part
        return f"{complex(value):.10g}"
    try:
        return f"{float(value):.10g}"
    except (TypeError, ValueError):
        return repr(value)[:40]


def first_difference(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> str:
    """Where and by how much two same-shape arrays differ (for a message)."""
    bad = ~np.isclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    index = tuple(int(i) for i in np.argwhere(bad)[0]) if got.ndim else ()
    with np.errstate(invalid="ignore"):
        error = np.abs(got.astype(np.float64) - expected.astype(np.float64))[bad]
    # over the entries that differ: inf where one side is infinite, nan when only NaNs differ
    worst = float(np.nanmax(error)) if (~np.isnan(error)).any() else float("nan")
    where = f"at index {index}" if index else "the value"
    return (f"{where} got {show_scalar(got[index])}, expected {show_scalar(expected[index])} "
            f"({int(bad.sum())} of {bad.size} entries differ; max abs error {worst:.3g}; rtol={rtol:g}, atol={atol:g})")


def matches(got: np.ndarray, candidate: np.ndarray, rtol: float, atol: float) -> bool:
    """True when ``got`` equals ``candidate`` within tolerance (same shape, NaNs in the same places):
    ``np.isclose(got, candidate, rtol, atol, equal_nan=True)`` everywhere.

    Float arrays whose ``candidate`` is finite everywhere are first compared with isclose's own rule for
    finite values, ``|got - candidate| <= atol + rtol * |candidate|`` (a NaN in ``got`` fails it), in a few
    ufunc calls; anything else (infinities, NaNs, integers, booleans) gets ``np.isclose`` itself."""
    if not (isinstance(candidate, np.ndarray) and candidate.shape == got.shape):
        return False
    if got.dtype.kind == candidate.dtype.kind == "f":
        with np.errstate(all="ignore"):
            if np.isfinite(candidate).all() and (np.abs(got - candidate) <= atol + rtol * np.abs(candidate)).all():
                return True
    return bool(np.all(np.isclose(got, candidate, rtol=rtol, atol=atol, equal_nan=True)))


def diagnostic_tolerance(got: np.ndarray, candidate: np.ndarray) -> tuple[float, float]:
    """(rtol, atol) for recognising a mistake: the lower precision of the two dtypes decides."""
    tolerances = [DIAGNOSTIC_TOLERANCES.get(np.dtype(a.dtype), DIAGNOSTIC_TOLERANCES[np.dtype(np.float64)])
                  for a in (got, candidate)]
    return max(t[0] for t in tolerances), max(t[1] for t in tolerances)


def explains(got: np.ndarray, candidate: Any, reference: Any, dtype_only: bool = False) -> bool:
    """True when a mistake's output ``candidate`` accounts for the student's ``got`` (module docstring)."""
    if not resembles(got, candidate):
        return False
    candidate, reference = np.asarray(candidate), np.asarray(reference)
    rtol, atol = tolerance_for(reference.dtype)
    if dtype_only or (got.dtype != reference.dtype and matches(got, reference, rtol, atol)):  # a dtype problem
        return candidate.dtype == got.dtype != reference.dtype
    return not matches(reference, candidate, rtol, atol)   # a value problem: the mistake must change values


def resembles(got: Any, candidate: Any) -> bool:
    """True when ``got`` matches a mistake's output at the diagnostic tolerance."""
    if not isinstance(got, np.ndarray) or candidate is None:
        return False
    candidate = np.asarray(candidate)
    if candidate.dtype.kind not in "fiub" or got.dtype.kind not in "fiub":
        return False
    if (candidate.dtype == np.bool_) != (got.dtype == np.bool_):  # a float mask is not a wrong boolean mask
        return False
    return matches(got, candidate, *diagnostic_tolerance(got, candidate))


def expect_close(got: Any, expected: np.ndarray, *, call: str, what: str = "", rtol: float | None = None,
                 atol: float | None = None, dtype: Any = None, origin: Any = None) -> np.ndarray:
    """Fail unless ``got`` is an array of ``expected``'s shape whose values are close (and, when asked, of ``dtype``).

    ``what`` names the part of a tuple result ("weights"). ``origin`` is the ``ref`` result a
    printed ``expected`` stands for (computed from the same inputs), so a wrong value can still
    be traced to its reference call and diagnosed. ``dtype="same"`` also asks for ``expected``'s dtype (after
    the values); by default the dtype is left to the exercise's dtype check.
    """
    label = f"{call} {what}".rstrip() if what else call
    origin = expected if origin is None else origin
    expected = np.asarray(expected)
    want_dtype = expected.dtype if dtype == "same" else dtype
    got = expect_array(got, call=label, shape=expected.shape, origin=origin, what=what)
    default_rtol, default_atol = tolerance_for(expected.dtype)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    if got.dtype.kind not in "fiub":
        raise CheckFailed(f"{label} returned dtype {got.dtype}; expected {expected.dtype}", rule="values")
    if not matches(got, expected, rtol, atol):
        if np.isnan(got).any() and not np.isnan(expected).any():
            message = f"{label} returned NaN at {int(np.isnan(got).sum())} entries; expected none"
        else:
            message = f"{label} returned wrong values: {first_difference(got, expected, rtol, atol)}"
        wrong_value(CheckFailed(message, got=got, expected=expected, origin=origin, what=what, rule="values"))
    expect_array(got, call=label, dtype=want_dtype, origin=origin, what=what)
    return got


def expect_parts(got: Any, expected: Any, *, call: str, names: tuple[str, ...] = ("output", "weights"),
                 order: tuple[int, ...] | None = None, dtype: Any = None, atol: float | None = None,
                 rtol: float | None = None, origin: Any = None) -> Any:
    """:func:`expect_close` for a result that is an array, or a tuple of arrays whose parts are named by ``names``.

    A tuple result must have as many parts as ``expected``; they are compared in ``order`` (indices; first to
    last by default), each with its own ``origin`` part. Returns ``got`` (as a tuple when ``expected`` is one).
    """
    if not isinstance(expected, tuple):
        return expect_close(got, expected, call=call, dtype=dtype, atol=atol, rtol=rtol, origin=origin)
    got = expect_tuple(got, call=call, names=names[: len(expected)])
    origin = expected if origin is None else origin
    for index in order if order is not None else range(len(expected)):
        expect_close(got[index], expected[index], call=call, what=names[index], dtype=dtype, atol=atol, rtol=rtol,
                     origin=origin[index])
    return got
