"""``attnkit check``: the student's command, on the reference, the stubs and a half-finished folder."""
import io
import shutil
from pathlib import Path

import pytest

from attnkit import check
from grader import curriculum
from grader.runner import discover

ROOT = Path(__file__).resolve().parents[2]
TOTAL = sum(s.points for e in curriculum.ids() for s in discover(e))


def _check(impl, *exercises):
    out = io.StringIO()
    status = check.main(list(exercises), impl, timeout=10, out=out)
    return status, out.getvalue()


def test_reference_passes_everything():
    status, text = _check(ROOT / "solutions")
    assert status == 0
    for exercise in curriculum.ids():
        assert f"PASS  {exercise}" in text
    assert f"{TOTAL:g}/{TOTAL:g}" in text


def test_untouched_stubs_fail_with_one_line_each():
    status, text = _check(ROOT / "exercises")
    assert status == 1
    assert f"0/{TOTAL:g}" in text
    for exercise in curriculum.ids():
        assert f"TODO  {exercise}" in text
        assert f"{exercise}: not implemented yet. Start with task 1" in text
    assert "Traceback" not in text


def test_one_exercise_only():
    status, text = _check(ROOT / "solutions", "masking")
    assert status == 0
    assert "masking" in text and "softmax" not in text


def test_a_broken_sibling_is_named(tmp_path):
    impl = tmp_path / "exercises"
    shutil.copytree(ROOT / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "exercises" / "softmax.py", impl / "softmax.py")  # softmax back to its stub
    status, text = _check(impl, "softmax", "attention")
    assert status == 1
    assert "TODO  softmax" in text and "FAIL  attention" in text
    attention_part = text.split("attention, task", 1)[1]
    assert "it uses your softmax.py, which is not implemented yet" in attention_part
    assert "attention uses your softmax, which also fails its own checks" in attention_part


@pytest.mark.parametrize("args, message", [
    ((ROOT / "nowhere",), "no folder"),
    ((ROOT / "solutions", "softmaxx"), "unknown exercise 'softmaxx'"),
])
def test_user_errors(capsys, args, message):
    impl, *exercises = args
    assert check.main(exercises, impl, out=io.StringIO()) == 2
    assert message in capsys.readouterr().err
