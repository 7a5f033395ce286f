"""``attnkit hint EXERCISE [--task N]``: hints from curriculum.yaml, one more each time you ask.

How many hints were revealed per task is kept in ``hints.json`` in the course's folder under the attnkit
home (``$ATTNKIT_HOME`` or the platform's user data dir; one folder per course, see attnkit.userdata), written
atomically. ``--reset`` starts a task (or, without ``--task``, every task of the exercise) again from hint 1
and says what it reset.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from attnkit import userdata
from grader import atomic

UNKNOWN = "attnkit hint: {error}"
NO_TASK = "attnkit hint: exercise {exercise} has tasks {tasks}; there is no task {task}"
ALL_SHOWN = "(that was the last hint for this task; run `attnkit check` to see what the checks say)"


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save(path: Path, data: dict) -> None:
    userdata.prepare(path)
    atomic.write_text(path, json.dumps(data, indent=1))


def add_arguments(parser) -> None:
    parser.add_argument("exercise", metavar="EXERCISE")
    parser.add_argument("--task", type=int, default=None, help="the task number (as in the check output)")
    parser.add_argument("--all", action="store_true", dest="show_all", help="show every hint of the task")
    parser.add_argument("--reset", action="store_true",
                        help="start the task (without --task: every task of the exercise) again from the first hint")


def run(args) -> int:
    return main(args.exercise, args.task, args.show_all, args.reset)


def main(exercise: str, task: int | None = None, show_all: bool = False, reset: bool = False, out=None) -> int:
    out = out or sys.stdout
    from grader import curriculum

    try:
        info = curriculum.get(exercise)
    except KeyError as error:
        print(UNKNOWN.format(error=error.args[0]), file=sys.stderr)
        return 2
    numbers = [t.number for t in info.tasks]
    if task is not None and task not in numbers:
        print(NO_TASK.format(exercise=exercise, tasks=numbers, task=task), file=sys.stderr)
        return 2
    path, moved = userdata.state_file("hints.json")
    if moved:
        print(f"note: {moved}", file=out)
    state = _load(path)
    if reset:
        return _reset(state, path, info, [task] if task is not None else numbers, out)
    chosen = info.task(task if task is not None else numbers[0])
    key = f"{exercise}/{chosen.number}"
    shown = len(chosen.hints) if show_all else min(_count(state.get(key)) + 1, len(chosen.hints))
    print(f"{info.title} - task {chosen.number}: {chosen.name}", file=out)
    for number, text in enumerate(chosen.hints[:shown], start=1):
        print(f"  hint {number}/{len(chosen.hints)}: {text}", file=out)
    if shown >= len(chosen.hints):
        print(ALL_SHOWN, file=out)
    elif shown:
        print(f"(ask again for hint {shown + 1})", file=out)
    state[key] = shown
    try:
        _save(path, state)
    except OSError:
        pass  # hints still shown; only the progression is not remembered
    return 0


def _count(value) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _reset(state: dict, path: Path, info, tasks: list[int], out) -> int:
    """Forget the hints shown for ``tasks`` of the exercise ``info`` in this course; say what was reset."""
    where = userdata.course().label
    seen = {number: _count(state.pop(f"{info.id}/{number}", 0)) for number in tasks}
    shown = {number: count for number, count in seen.items() if count}
    if not shown:
        which = f"task {tasks[0]}" if len(tasks) == 1 else "any task"
        print(f"attnkit hint: no hint of {info.id} {which} had been shown in {where}; nothing to reset", file=out)
        return 0
    try:
        _save(path, state)
    except OSError as error:
        print(f"attnkit hint: could not reset ({error.strerror or error}); set ATTNKIT_HOME to a writable folder",
              file=sys.stderr)
        return 1
    hints = {number: len(info.task(number).hints) for number in shown}
    parts = ", ".join(f"task {number} ({count} of {hints[number]} hints shown)" for number, count in shown.items())
    print(f"attnkit hint: reset {info.id} {parts} in {where}; `attnkit hint {info.id}"
          f"{f' --task {tasks[0]}' if len(tasks) == 1 else ''}` starts again from hint 1", file=out)
    return 0
