"""Small helpers shared by the check modules (not checks themselves: no ``test_`` names here)."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..compare import CheckFailed, describe, expect_close, expect_parts
from ..memo import MISSING, Memo
from ..sandbox import StudentRaised

DTYPES = (np.float64, np.float32)


KEPT_DRAW = 2**12           # entries from which a draw is kept (smaller ones cost less than finding them again)
_drawn = Memo(64 * 2**20)   # large draws: (generator state, shape, dtype, scale) -> (array, state after)


def normal(rng: np.random.Generator, shape, dtype=np.float64, scale: float = 1.0) -> np.ndarray:
    """Seeded standard-normal input of shape ``shape`` and dtype ``dtype``, times ``scale``.

    A large draw (at least :data:`KEPT_DRAW` entries: a memory check's inputs) is made once per process and kept,
    read-only in memory that cannot be made writable, with the state it leaves ``rng`` in: the next student's check
    gets the same array and ``rng`` moves on as it would have (a class draws the same inputs again and again), and
    the reference's memo digests such an array once (``grader.calls``)."""
    size = math.prod(shape) if isinstance(shape, tuple) else int(np.prod(shape))
    bits = rng.bit_generator
    if size < KEPT_DRAW or type(bits) is not np.random.PCG64:
        return (rng.standard_normal(shape) * scale).astype(dtype)
    before = bits.state
    key = (before["state"]["state"], before["state"]["inc"], before["has_uint32"], before["uinteger"],
           tuple(np.atleast_1d(shape).tolist()), np.dtype(dtype).str, float(scale))
    found = _drawn.get(key)
    if found is MISSING:
        drawn = (rng.standard_normal(shape) * scale).astype(dtype)
        found = (np.ndarray(drawn.shape, drawn.dtype, buffer=drawn.tobytes()), bits.state)
        _drawn.put(key, found, size=drawn.nbytes)
    else:
        bits.state = found[1]
    return found[0]


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


def expect_kernel_memory(impl, *, call: str, budget: int, allowance: int, full: int, mistake,
                         diagnose_from: int | None = None) -> None:
    """The operating system's view of a memory check, which enforces its stated ``budget`` (bytes): the peak of the
    student's process above its size before any student code ran (its module's import and this one call, in a
    process started for it, ``grader/sandbox/host/memory.py``) may pass ``allowance`` (the arguments received and the
    result, which every implementation holds) by less than ``budget``. ``full``: the bytes of the n x n matrix
    the check looks for; ``mistake`` is named from ``diagnose_from`` extra bytes (half of ``full`` by default), as
    the check's own tracemalloc figure names it.

    tracemalloc runs inside the student's process, where it can be patched; this figure, read from /proc by the
    trusted side, cannot. Nothing to check where the transport measures no kernel memory (in-process runs).
    """
    kernel = impl.last_call.kernel_memory
    if kernel is None:
        return
    extra = kernel.peak - allowance
    if extra >= budget:
        raise CheckFailed(f"{call}: your process held {extra / 2**20:.1f} MiB beyond its arguments and result at its "
                          f"peak, counting what your module holds since its import (measured by the operating "
                          f"system); expected less than {budget / 2**20:.0f} MiB (one n x n float64 matrix is "
                          f"{full / 2**20:.0f} MiB)",
                          mistake if extra >= (full // 2 if diagnose_from is None else diagnose_from) else None)
