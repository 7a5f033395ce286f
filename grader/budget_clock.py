"""The clock a diagnosis's time budget reads (``grader.diagnose_beyond``): this thread's CPU seconds, less the time
the garbage collector took and less the work run under :func:`excluded` (building a mistaken reference,
``grader.mistaken``), each second left out once.

CPU time, not wall time: a machine busy with other work must not make a diagnosis name less. Not the collector's
time: a collection that starts during a try walks every object of the process (in a long-lived process, tens of
milliseconds), and counted as the try's it would make the slowest try too slow for any other. A collection during
excluded work is the collector's time only: left out of the excluded seconds, it is not taken off twice.
"""
from __future__ import annotations

import gc
import threading
import time
from contextlib import contextmanager
from typing import Iterator


class _Spent(threading.local):
    """This thread's seconds the clock leaves out."""

    collecting = 0.0  # CPU seconds in the garbage collector
    began = 0.0       # when the running collection began
    excluded = 0.0    # CPU seconds of excluded work, its collections left out
    depth = 0         # excluded blocks open (one inside another counts once: the outer one)


_SPENT = _Spent()


def _collecting(phase: str, info: dict) -> None:
    if phase == "start":
        _SPENT.began = time.thread_time()
    else:
        _SPENT.collecting += time.thread_time() - _SPENT.began


gc.callbacks.append(_collecting)


def clock() -> float:
    """This thread's CPU seconds, less the collector's and the excluded work's."""
    return time.thread_time() - _SPENT.collecting - _SPENT.excluded


@contextmanager
def excluded() -> Iterator[None]:
    """The CPU seconds of the block do not advance :func:`clock` (its collections are left out as the collector's)."""
    spent = _SPENT
    spent.depth += 1
    started, collected = time.thread_time(), spent.collecting
    try:
        yield
    finally:
        spent.depth -= 1
        if spent.depth == 0:
            spent.excluded += time.thread_time() - started - (spent.collecting - collected)
