"""A passing exercise is never blamed: when the called exercise passes its own checks, the caller is at fault."""
import io
import json
import shutil
from pathlib import Path

from attnkit import check
from attnkit.grade import main as grade

ROOT = Path(__file__).resolve().parents[2]
HEAD_AXIS = "            mask = np.expand_dims(mask, -3)         # (..., 1, n, n): one mask, every head\n"


def _no_head_axis(folder: Path) -> Path:
    """The reference modules, with multihead passing a (batch, n, n) mask on to attention (no head axis):
    it raises inside the reference masking.py."""
    shutil.copytree(ROOT / "solutions", folder, ignore=shutil.ignore_patterns("__pycache__"))
    source = (folder / "multihead.py").read_text()
    assert HEAD_AXIS in source
    (folder / "multihead.py").write_text(source.replace(HEAD_AXIS, "            pass\n"))
    return folder


def _assert_caller_blamed(text: str) -> None:
    assert "blocked by exercise masking" not in text and "fix that exercise first" not in text
    assert "the error came from your masking.py, but exercise masking passes its own checks" in text
    assert "your multi_head_self_attention (task 3 of multihead)" in text
    # the caller's task hint, unless the error's own diagnosis (issue 21: explained from the caller's failing line,
    # a broadcast of a (batch, n, n) mask against (batch, heads, n, n) scores) gives a more specific one
    assert "hint: Project with the packed matrices" in text or "the error came from" in text and "keepdims" in text


def test_check_blames_the_caller(tmp_path):
    impl = _no_head_axis(tmp_path / "exercises")
    for chosen in (["masking", "attention", "multihead"], ["multihead"]):  # masking in the run, or not
        out = io.StringIO()
        assert check.main(chosen, impl, timeout=10, out=out) == 1
        text = out.getvalue()
        assert "FAIL  multihead" in text
        assert "multihead, task 3 (multi_head_self_attention)" in text
        _assert_caller_blamed(text)


def test_check_still_blames_a_failing_sibling(tmp_path):
    impl = _no_head_axis(tmp_path / "exercises")
    shutil.copy(ROOT / "exercises" / "masking.py", impl / "masking.py")  # masking back to its stub
    out = io.StringIO()
    check.main(["attention"], impl, timeout=10, out=out)
    assert "attention: blocked by exercise masking, fix it first" in out.getvalue()


def test_grade_blames_the_caller(tmp_path):
    _no_head_axis(tmp_path / "class" / "alice")
    out = tmp_path / "out"
    with open(tmp_path / "stdout", "w") as stdout, open(tmp_path / "stderr", "w") as stderr:
        assert grade(tmp_path / "class", out, jobs=1, timeout=5, progress=False, stdout=stdout, stderr=stderr) == 0
    tests = json.loads((out / "alice.json").read_text())["tests"]
    failed = [t for t in tests if t["score"] < t["max_score"]]
    assert [t["tags"][:2] for t in failed] == [["multihead", "task 3"]]
    _assert_caller_blamed(failed[0]["output"])
