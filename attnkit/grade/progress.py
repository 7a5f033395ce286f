"""Progress: a rich bar on a terminal, one quiet line per submission otherwise (``[12/300] alice 87.5/100``)."""
from __future__ import annotations

import sys
import time

from grader.text import printable

from .summary import number

SLOW_SECONDS = 5.0  # a line names how long a submission took when it took at least this long


class LineProgress:
    def __init__(self, total: int, stream=None):
        self.total, self.count, self.stream = total, 0, stream or sys.stderr
        self.started: dict[str, float] = {}  # being graded: when it started
        self.named: set[str] = set()         # ... and already named as slow

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def note(self, text: str) -> None:
        print(printable(text), file=self.stream, flush=True)

    def grading(self, student: str) -> None:
        """``student``'s grading has started; a line names it once it takes :data:`SLOW_SECONDS` (see :meth:`tick`)."""
        self.started[student] = time.monotonic()

    def tick(self) -> None:
        for student, began in self.started.items():
            if student not in self.named and time.monotonic() - began >= SLOW_SECONDS:
                self.named.add(student)
                print(printable(f"[{self.count}/{self.total}] still grading {student}..."), file=self.stream,
                      flush=True)

    def _slow_note(self, student: str) -> str:
        began = self.started.pop(student, None)
        self.named.discard(student)
        seconds = time.monotonic() - began if began is not None else 0.0
        return f" in {seconds:.0f} s" if seconds >= SLOW_SECONDS else ""

    def advance(self, student: str, score: float, max_score: float, status: str = "graded") -> None:
        self.count += 1
        tail = ("" if status == "graded" else f" ({status})") + self._slow_note(student)
        print(printable(f"[{self.count}/{self.total}] {student} {number(score)}/{number(max_score)}{tail}"),
              file=self.stream, flush=True)


class BarProgress:
    def __init__(self, total: int, stream=None):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.console = Console(file=stream or sys.stderr)
        self.bar = Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            TextColumn("{task.fields[now]}"), console=self.console, transient=False)
        self.task = self.bar.add_task("grading", total=total, now="")
        self.now: list[str] = []  # being graded, oldest first


    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def note(self, text: str) -> None:
        self.bar.console.print(printable(text), markup=False, highlight=False)

    def grading(self, student: str) -> None:
        self.now.append(student)
        self.bar.update(self.task, now=self._now())

    def tick(self) -> None:
        return None  # the bar names who is being graded all along

    def _now(self) -> str:
        return f"now: {', '.join(self.now)}" if self.now else ""

    def advance(self, student: str, score: float, max_score: float, status: str = "graded") -> None:
        if status != "graded":
            self.bar.console.print(printable(f"{student}: {status}"), markup=False, highlight=False)
        if student in self.now:
            self.now.remove(student)
        self.bar.update(self.task, advance=1, now=self._now())


def make(total: int, bar: bool | None = None, stream=None):
    """``bar`` None: a rich bar when ``stream`` (stderr) is a terminal; True/False forces it."""
    stream = stream or sys.stderr
    if bar is None:
        bar = hasattr(stream, "isatty") and stream.isatty()
    return BarProgress(total, stream) if bar else LineProgress(total, stream)
