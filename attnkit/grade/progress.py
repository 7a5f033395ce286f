"""Progress: a rich bar on a terminal, one quiet line per submission otherwise (``[12/300] alice 87.5/100``)."""
from __future__ import annotations

import sys

from .summary import number


class LineProgress:
    def __init__(self, total: int, stream=None):
        self.total, self.count, self.stream = total, 0, stream or sys.stderr

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def note(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def advance(self, student: str, score: float, max_score: float, status: str = "graded") -> None:
        self.count += 1
        tail = "" if status == "graded" else f" ({status})"
        print(f"[{self.count}/{self.total}] {student} {number(score)}/{number(max_score)}{tail}",
              file=self.stream, flush=True)


class BarProgress:
    def __init__(self, total: int, stream=None):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.console = Console(file=stream or sys.stderr)
        self.bar = Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            TextColumn("{task.fields[last]}"), console=self.console, transient=False)
        self.task = self.bar.add_task("grading", total=total, last="")

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def note(self, text: str) -> None:
        self.bar.console.print(text, markup=False, highlight=False)

    def advance(self, student: str, score: float, max_score: float, status: str = "graded") -> None:
        if status != "graded":
            self.bar.console.print(f"{student}: {status}", markup=False, highlight=False)
        self.bar.update(self.task, advance=1, last=f"{student} {number(score)}/{number(max_score)}")


def make(total: int, bar: bool | None = None, stream=None):
    """``bar`` None: a rich bar when ``stream`` (stderr) is a terminal; True/False forces it."""
    stream = stream or sys.stderr
    if bar is None:
        bar = hasattr(stream, "isatty") and stream.isatty()
    return BarProgress(total, stream) if bar else LineProgress(total, stream)
