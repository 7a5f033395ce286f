"""Small helpers shared by the check modules (not checks themselves: no ``test_`` names here)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..compare import CheckFailed, describe, expect_array, expect_close, expect_tuple
from ..sandbox.errors import StudentRaised

DTYPES = (np.float64, np.float32)


def normal(rng: np.random.Generator, shape, dtype=np.float64, scale: float = 1.0) -> np.ndarray:
    """Seeded standard-normal input of a given shape and dtype."""
    return (rng.standard_normal(shape) * scale).astype(dtype)


def expect_pair(got: Any, expected: tuple, *, call: str, mistakes: Callable[[int], list] = lambda part: [],
                atol: float | None = None, rtol: float | None = None) -> tuple:
    """An ``(output, weights)`` result: the weights are compared first (they locate most mistakes)."""
    got = expect_tuple(got, call=call, names=("output", "weights"))
    expect_close(got[1], expected[1], call=call, what="weights", mistakes=mistakes(1), atol=atol, rtol=rtol)
    expect_close(got[0], expected[0], call=call, what="output", mistakes=mistakes(0), atol=atol, rtol=rtol)
    return got


def expect_mask(got: Any, expected: np.ndarray, *, call: str, mistakes=()) -> np.ndarray:
    """A boolean mask: same shape, dtype bool, same entries."""
    got = expect_array(got, call=call, shape=expected.shape)
    if got.dtype != np.bool_:
        raise CheckFailed(f"{call} returned dtype {got.dtype}; expected bool (True where a query may attend)")
    return expect_close(got, expected, call=call, mistakes=mistakes)


def large_negative_fill(got: Any, expected: np.ndarray, limit: float = -1e4) -> np.ndarray | None:
    """``expected`` with the student's entries where it is -inf, when all of those are finite and <= ``limit``.

    The mistake candidate of "forbidden scores set to a large negative number instead of -inf":
    it matches the student's value exactly when everything else is right. None (no candidate)
    when ``got`` has another shape or a forbidden entry that is -inf, NaN or not very negative.
    """
    expected = np.asarray(expected)
    if not isinstance(got, np.ndarray) or got.shape != expected.shape:
        return None
    forbidden = np.isneginf(expected)
    chosen = got[forbidden]
    if chosen.size == 0 or not np.all(np.isfinite(chosen)) or not np.all(chosen <= limit):
        return None
    return np.where(forbidden, got, expected)


def expect_value_error(thunk: Callable[[], Any], *, call: str, why: str) -> None:
    """The student's call must raise ValueError (checked by the exception's class name)."""
    try:
        got = thunk()
    except StudentRaised as error:
        if error.error_type != "ValueError":
            raise CheckFailed(f"{call} raised {error.error_type}; expected ValueError ({why})") from None
        return
    raise CheckFailed(f"{call} returned {describe(got)}; expected it to raise ValueError ({why})")
