"""What isolation costs per child and per request, in CPU time (wall time is noise on a shared machine).

Three figures, each over many repetitions on one core (the grader process, its zygote and the children pinned
together, as ``attnkit grade`` runs them):

- a child's life: fork from the zygote, lock-down, import of the exercise's module, retirement (kill, reap);
- a round trip: one call of the student's ``softmax`` on a 1-element array (the child's work is nothing);
- the same round trip with the call's arguments larger (a 64 x 64 float64 array, in the shared region).

CPU time is read from the kernel: this process's own (``time.process_time``), and the zygote's with its reaped
children (``/proc/<zygote>/stat``: utime, stime, cutime, cstime), so every part of a child's life is counted,
its exit included, whichever process the scheduler ran it in.
"""
from __future__ import annotations

import os
import time

import numpy as np

from grader.calls import Call
from grader.sandbox import Sandbox

from .measure import ROOT

TICK = os.sysconf("SC_CLK_TCK")


def _zygote_cpu(pid: int) -> float:
    """Seconds of CPU of the zygote and of its children it has reaped."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / TICK


def cpu(sandbox: Sandbox) -> tuple[float, float]:
    """(this process's CPU seconds, the zygote's with its reaped children's)."""
    return time.process_time(), _zygote_cpu(sandbox.zygote.process.pid)


def _spent(before: tuple[float, float], sandbox: Sandbox, count: int) -> dict:
    sandbox.zygote.settle()
    after = cpu(sandbox)
    trusted, children = (after[0] - before[0]) / count, (after[1] - before[1]) / count
    return {"trusted_ms": trusted * 1000, "children_ms": children * 1000, "total_ms": (trusted + children) * 1000}


def lives(sandbox: Sandbox, count: int) -> dict:
    """Per child: spawn, import ``softmax``, close (killed, released, reaped by the zygote)."""
    solutions = ROOT / "solutions"
    with sandbox.session(solutions) as session:
        session.implementation("softmax").close()  # the submission's bytecode written once
        before, start = cpu(sandbox), time.perf_counter()
        for _ in range(count):
            session.implementation("softmax").close()
        wall = (time.perf_counter() - start) / count
    return {**_spent(before, sandbox, count), "wall_ms": wall * 1000}


def round_trips(sandbox: Sandbox, count: int, size: int = 1) -> dict:
    """Per request: ``softmax(x)`` with ``x`` of ``size`` x ``size`` float64 (``size`` 1: a 1-element array)."""
    solutions = ROOT / "solutions"
    x = np.zeros((size, size)) if size > 1 else np.zeros(1)
    call = Call("softmax", "softmax", (x,), {})
    with sandbox.session(solutions) as session:
        impl = session.implementation("softmax")
        for _ in range(50):
            impl.call(call)
        before, start = cpu(sandbox), time.perf_counter()
        for _ in range(count):
            impl.call(call)
        wall = (time.perf_counter() - start) / count
        impl.close()
        result = _spent(before, sandbox, count)  # (with the child's exit: a few microseconds over ``count``)
    return {**result, "wall_ms": wall * 1000}


def run(children: int = 200, requests: int = 3000) -> dict:
    with Sandbox() as sandbox, sandbox.pinned(0):
        return {"life": lives(sandbox, children), "round_trip": round_trips(sandbox, requests),
                "round_trip_64x64": round_trips(sandbox, requests, 64)}


if __name__ == "__main__":
    for name, figures in run().items():
        print(f"{name:18s} " + "  ".join(f"{key} {value:7.3f}" for key, value in figures.items()))
