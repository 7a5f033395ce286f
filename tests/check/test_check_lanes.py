"""``attnkit check`` checks several exercises at once: the same results as one at a time, in the curriculum's order,
and a table whose columns line up whatever the length of the exercise ids; the next exercise's child is started
while the lanes work, and closed when no lane takes its exercise."""
import io
import re
import shutil
from pathlib import Path

import pytest

from attnkit import check
from grader import curriculum
from grader.lanes import in_lanes
from grader.sandbox.host.spawner import Limits, Zygote
from tests.sessionkit import run_folder

ROOT = Path(__file__).resolve().parents[2]


def outcome(results):
    return [(r.exercise, [(c.name, c.status, c.points, c.message, c.mistake) for c in r.checks]) for r in results]


def test_two_lanes_give_the_results_of_one(tmp_path):
    impl = tmp_path / "exercises"
    shutil.copytree(ROOT / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "exercises" / "softmax.py", impl / "softmax.py")  # its dependants fail through it
    text = (impl / "tiled_attention.py").read_text()
    (impl / "tiled_attention.py").write_text(text.replace("scores *= scale", "scores *= 1.0", 1))  # a mistake
    with Zygote(Limits(timeout=10)) as zygote:
        one = run_folder(zygote, impl, lanes=1)
        two = run_folder(zygote, impl, lanes=2)
    assert [r.exercise for r in two] == list(curriculum.ids())
    assert outcome(two) == outcome(one)
    tiled = next(r for r in two if r.exercise == "tiled_attention")
    assert any(c.mistake for c in tiled.checks) and tiled.score < tiled.max_score


def test_the_table_columns_line_up():
    out = io.StringIO()
    assert check.main(None, ROOT / "solutions", timeout=10, out=out) == 0
    rows = [line for line in out.getvalue().splitlines() if re.match(r"(PASS|      total)", line)]
    assert len(rows) == len(curriculum.ids()) + 1
    assert max(curriculum.ids(), key=len) in out.getvalue()
    assert len({line.index("/") for line in rows}) == 1, rows


class FakeImpl:
    def __init__(self, exercise, closed):
        self.exercise, self.closed = exercise, closed

    def close(self):
        self.closed.append(self.exercise)


def test_the_next_exercises_child_is_started_ahead_and_handed_to_the_lane_that_takes_it():
    started, closed, given = [], [], {}

    def start(exercise):
        started.append(exercise)
        return FakeImpl(exercise, closed)

    def run_one(exercise, impl=None):
        given[exercise] = impl.exercise if impl is not None else None
        return exercise.upper()

    order = ("c", "a", "b", "d")
    assert in_lanes(run_one, order, 2, start=start) == {e: e.upper() for e in order}
    assert sorted(started) == ["a", "b", "d"]  # every exercise but the first taken, once
    assert given == {"c": None, "a": "a", "b": "b", "d": "d"} and closed == []


def test_a_child_started_for_an_exercise_no_lane_takes_is_closed():
    closed = []

    def run_one(exercise, impl=None):
        raise RuntimeError(f"the grader failed in {exercise}")

    with pytest.raises(RuntimeError, match="the grader failed in a"):
        in_lanes(run_one, ("a", "b"), 1, start=lambda exercise: FakeImpl(exercise, closed))
    assert closed == ["b"]


@pytest.mark.parametrize("cpus, expected", [(1, 1), (2, 6), (3, 6), (16, 6)])
def test_check_runs_three_lanes_per_cpu_at_most_six_and_one_on_a_single_cpu(monkeypatch, cpus, expected):
    monkeypatch.setattr(check.os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    assert check.lanes() == expected
