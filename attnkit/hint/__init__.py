"""``attnkit hint EXERCISE [--task N]``: hints from curriculum.yaml, one more each time you ask.

How many hints were revealed per task is kept in ``hints.json`` under the attnkit home
(``$ATTNKIT_HOME`` or the platform's user data dir), written atomically.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from attnkit import atomic
from attnkit.userdata import home

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
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, json.dumps(data, indent=1))


def add_arguments(parser) -> None:
    parser.add_argument("exercise", metavar="EXERCISE")
    parser.add_argument("--task", type=int, default=None, help="the task number (as in the check output)")
    parser.add_argument("--all", action="store_true", dest="show_all", help="show every hint of the task")
    parser.add_argument("--reset", action="store_true", help="start again from the first hint")


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
    chosen = info.task(task if task is not None else numbers[0])
    path = home() / "hints.json"
    state = _load(path)
    key = f"{exercise}/{chosen.number}"
    shown = len(chosen.hints) if show_all else (0 if reset else min(int(state.get(key, 0)) + 1, len(chosen.hints)))
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
