"""``attnkit check`` checks two exercises at once: the same results as one at a time, in the curriculum's order,
and a table whose columns line up whatever the length of the exercise ids."""
import io
import re
import shutil
from pathlib import Path

from attnkit import check
from grader import curriculum
from grader.runner import run_submission
from grader.sandbox.spawner import Limits, Zygote

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
        one = run_submission(impl, zygote, lanes=1)
        two = run_submission(impl, zygote, lanes=2)
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
