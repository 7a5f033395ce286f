"""Small helpers shared by the check modules (not checks themselves: no ``test_`` names here)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..compare import CheckFailed, describe, expect_close, expect_parts
from ..sandbox.errors import StudentRaised

DTYPES = (np.float64, np.float32)


def normal(rng: np.random.Generator, shape, dtype=np.float64, scale: float = 1.0) -> np.ndarray:
    """Seeded standard-normal input of a given shape and dtype."""
    return (rng.standard_normal(shape) * scale).astype(dtype)


def expect_pair(got: Any, expected: tuple, *, call: str, atol: float | None = None, rtol: float | None = None,
                origin: tuple | None = None) -> tuple:
    """An ``(output, weights)`` result: the weights are compared first (they locate most mistakes).

    ``origin`` is the ``ref`` result a printed ``expected`` stands for (for diagnosis).
    """
    return expect_parts(got, expected, call=call, order=(1, 0), atol=atol, rtol=rtol, origin=origin)


def expect_mask(got: Any, expected: np.ndarray, *, call: str, origin: Any = None) -> np.ndarray:
    """A mask: same shape, same entries (its dtype bool is scored by the exercise's dtype check)."""
    return expect_close(got, expected, call=call, origin=origin)


def expect_dtypes(got: Any, expected: Any, *, call: str, names: tuple[str, ...] = ("output", "weights")) -> None:
    """The dtype check of a result: right values, in the dtype of the reference's ``expected``.

    ``expected`` is an array or a tuple of arrays (its parts named by ``names``). The value checks
    never fail on a dtype alone, so a dtype problem costs only this check; the values are compared
    here too, so that zeros (or anything wrong) in the right dtype earn nothing.
    """
    expect_parts(got, expected, call=call, names=names, dtype="same")


def expect_value_error(thunk: Callable[[], Any], *, call: str, why: str) -> None:
    """The student's call must raise ValueError (checked by the exception's class name)."""
    try:
        got = thunk()
    except StudentRaised as error:
        if error.error_type != "ValueError":
            raise CheckFailed(f"{call} raised {error.error_type}; expected ValueError ({why})") from None
        return
    raise CheckFailed(f"{call} returned {describe(got)}; expected it to raise ValueError ({why})")


def expect_kernel_memory(impl, *, call: str, n: int, mistake) -> None:
    """The operating system's view of a memory check: neither what the student's process held before the call
    (a matrix made at import) nor how far it grew during it may reach half an ``n x n`` float64 matrix.

    tracemalloc runs inside the student's process, where it can be patched; the child's memory, read from
    /proc by the trusted side, cannot (the reference: about 10 MiB held and 3 MiB growth at n = 2048).
    Nothing to check where the transport measures no kernel memory (in-process runs).
    """
    kernel = getattr(impl.transport, "kernel_memory", None)
    if kernel is None:
        return
    matrix = n * n * 8
    for amount, what in ((kernel.held_before, "held {} MiB before the call"),
                         (kernel.growth, "grew by {} MiB while it ran")):
        if amount >= matrix // 2:
            raise CheckFailed(f"{call}: your process {what.format(round(amount / 2**20))} (measured by the operating "
                              f"system); expected far less than one {n} x {n} float64 matrix "
                              f"({matrix / 2**20:.0f} MiB)", mistake)
