"""Keep a grader process, its zygote and its children on one CPU.

The trusted side and a student child answer each other in strict turns (request, answer).
On two cores, each turn that crosses cores waits for the other core to wake up: measured on
this project's 2-core machines, a Python socket ping-pong takes about 40 us across cores and
11 us on one. Pinning a grader process before it starts its zygote puts the whole
conversation on one core (children inherit the affinity); ``attnkit grade --jobs N`` pins
worker i to core i, so N workers still use N cores. BLAS must then be single-threaded
(``attnkit``'s command line sets ``OPENBLAS_NUM_THREADS=1`` before numpy loads; the zygote's
environment always has it), or its threads would fight over the one core. ``attnkit check`` (and
``watch``) is not pinned: it checks several exercises at once (``grader.runner.run_submission(lanes=...)``),
its children on both cores.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

# The environment that keeps BLAS to one thread: set by the CLI before numpy loads, and the zygote's.
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def pin(index: int = 0) -> int | None:
    """Pin this process to the ``index``-th CPU it may run on (modulo their number); returns the CPU.

    Does nothing (returns None) where the OS has no affinity API.
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        allowed = sorted(os.sched_getaffinity(0))
        cpu = allowed[index % len(allowed)]
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return cpu


def pin_with(zygote, index: int = 0) -> int | None:
    """Pin this process to one CPU and have ``zygote``'s children run on the same one."""
    cpu = pin(index)
    zygote.cpu = cpu
    return cpu


@contextmanager
def pinned(zygote, index: int = 0) -> Iterator[int | None]:
    """:func:`pin_with` for the duration of a block; this process's CPUs are restored after it."""
    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        yield pin_with(zygote, index)
    finally:
        zygote.cpu = None
        if before is not None:
            try:
                os.sched_setaffinity(0, before)
            except OSError:
                pass
