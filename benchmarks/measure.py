"""Small measuring tools shared by the benchmark sections: wall time of a command, medians."""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Run:
    seconds: float      # wall time from process start to exit
    status: int
    peak_mb: float      # the largest total proportional set size (PSS) of the command's process tree
    cpu_seconds: float = 0.0  # user + system time of the whole tree (every process in it is waited for by its parent)


def _tree(root: int) -> list[int]:
    """``root`` and all its descendants (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def _pss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


def run_command(argv: list[str], cwd: Path = ROOT, env: dict | None = None, sample: bool = False) -> Run:
    """Run ``argv`` to completion (output discarded): wall time, and peak memory when ``sample``."""
    environment = dict(os.environ, **(env or {}))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0.0]
    if sample:
        def watch():
            while process.poll() is None:
                peak[0] = max(peak[0], _pss_mb(_tree(process.pid)))
                time.sleep(0.2)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    _, err = process.communicate()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode not in (0, 1):
        sys.stderr.write(err.decode(errors="replace")[-2000:])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(seconds, process.returncode, peak[0], cpu)


def attnkit(*args: str) -> list[str]:
    return [sys.executable, "-m", "attnkit", *args]


def median(values) -> float:
    return statistics.median(values)
