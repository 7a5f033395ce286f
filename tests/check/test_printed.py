"""A student's own print() output is shown, bounded and marked as theirs, after the check's result."""
import io
import shutil
from pathlib import Path

from attnkit import check
from grader import printed

ROOT = Path(__file__).resolve().parents[2]
NOISY = '\nprint("loaded softmax")\nfor _line in range(500):\n    print("line", _line, "x" * 50)\n'


def _folder(tmp_path: Path, extra: str) -> Path:
    impl = tmp_path / "exercises"
    shutil.copytree(ROOT / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
    with open(impl / "softmax.py", "a") as handle:
        handle.write(extra)
    return impl


def test_check_shows_what_a_passing_module_printed(tmp_path):
    out = io.StringIO()
    assert check.main(["softmax"], _folder(tmp_path, '\nprint("debugging softmax")\n'), timeout=10, out=out) == 0
    text = out.getvalue()
    table, shown = text.split("softmax: printed by your code", 1)
    assert "PASS  softmax" in table  # the result first, then the output
    assert f"{printed.MARK}debugging softmax" in shown


def test_check_bounds_what_it_shows(tmp_path):
    out = io.StringIO()
    check.main(["softmax", "masking"], _folder(tmp_path, NOISY), timeout=10, out=out)
    lines = out.getvalue().splitlines()
    marked = [line for line in lines if line.startswith(printed.MARK)]
    assert marked[0] == f"{printed.MARK}loaded softmax"
    assert len(marked) == printed.SHOWN_LINES and sum(map(len, marked)) <= printed.SHOWN_CHARACTERS
    (header,) = [line for line in lines if "printed by your code" in line]
    assert header.startswith("softmax: ") and f"the first {printed.SHOWN_LINES} lines of " in header


def test_pytest_plugin_shows_it_with_s(pytester, tmp_path):
    impl = _folder(tmp_path, '\nprint("debugging softmax")\n')
    result = pytester.runpytest_subprocess("--impl", str(impl), "-s", "-q", "-k", "test_softmax_matches_reference",
                                           "-p", "no:randomly", "-p", "no:cacheprovider", timeout=300)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["softmax: printed by your code*", f"{printed.MARK}debugging softmax"])


def test_pytest_plugin_shows_it_with_a_failure(pytester, tmp_path):
    wrong = '\nprint("debugging softmax")\nsoftmax = lambda x, axis=-1: x\n'
    result = pytester.runpytest_subprocess("--impl", str(_folder(tmp_path, wrong)), "-q", "-k",
                                           "test_softmax_matches_reference", "-p", "no:randomly", "-p",
                                           "no:cacheprovider", timeout=300)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*Captured printed by the student's code call*",
                                 f"{printed.MARK}debugging softmax"])


def test_what_is_shown_names_no_path_of_the_grading_machine_and_no_escape_sequence(tmp_path):
    """A warning names the file it came from: the student's copy in the grader's temp folder. Shown as
    ``<your submission>``, as every other message a child's process produces; terminal escapes are escaped."""
    out = io.StringIO()
    source = '\nimport warnings\nwarnings.warn("careful")\nprint("\\x1b[31mred")\n'
    check.main(["softmax"], _folder(tmp_path, source), timeout=10, out=out)
    shown = out.getvalue().split("softmax: printed by your code", 1)[1]
    assert "<your submission>/softmax.py" in shown and "attnkit-" not in shown and "/tmp" not in shown
    assert "\x1b" not in shown and "red" in shown
