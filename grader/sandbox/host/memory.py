"""The kernel's view of a child's memory around one ``measure`` call, read from /proc on the trusted side.

A ``measure`` call runs in a child started for it (``ChildTransport`` starts a fresh one when the child has
answered anything but its import), so its resident memory above the size it had before any student code ran
(the spawn baseline) is what the student's module and this one call made it hold: the import, the arguments
received, everything the call allocated and its result. Nothing of it is a figure the child computes.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KernelMemory:
    """Bytes: ``held_before``, resident memory above the spawn baseline when the call was sent; ``growth``, how far
    the peak resident memory rose during the call; ``peak``, the peak above the spawn baseline (their sum)."""

    held_before: int
    growth: int

    @property
    def peak(self) -> int:
        return self.held_before + self.growth


def status_kib(pid: int, field: str) -> int | None:
    """A ``kB`` field of /proc/PID/status (VmRSS, VmHWM), or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def reset_peak(pid: int) -> int | None:
    """Before a ``measure`` call: the child's resident KiB now, and its peak (VmHWM) reset to it."""
    before = status_kib(pid, "VmRSS")
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as clear:
            clear.write("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
    except OSError:
        pass  # then VmHWM also counts earlier peaks: stricter, never laxer
    return before


def read_peak(pid: int, before: int, baseline: int | None) -> KernelMemory | None:
    """After the call: what it held before (above ``baseline``, the spawn size) and how far it grew."""
    peak = status_kib(pid, "VmHWM")
    if peak is None or baseline is None:
        return None
    return KernelMemory(held_before=max(before - baseline, 0) * 1024, growth=max(peak - before, 0) * 1024)
