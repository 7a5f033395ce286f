"""The pytest plugin (``pytest --impl DIR``), driven through pytest itself with ``pytester``: in this process
(``runpytest_inprocess``; pytester restores the imported modules afterwards), the student's code in the plugin's
own sandboxed children as always."""
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from grader import curriculum
from grader.pytest_plugin import EXERCISE_LINE, NO_SUCH_DIR, POINTS_MARKER, SCORE_LINE
from grader.runner import NOT_IMPLEMENTED_MESSAGE, discover

ROOT = Path(__file__).resolve().parents[2]

TOTAL_CHECKS = sum(len(discover(e)) for e in curriculum.ids())
TOTAL_POINTS = sum(s.points for e in curriculum.ids() for s in discover(e))


def _run(pytester, *args):
    return pytester.runpytest_inprocess(*args, "-p", "no:randomly", "-p", "no:cacheprovider")


@pytest.mark.slow
def test_reference_scores_full_marks(pytester):
    result = _run(pytester, "--impl", str(ROOT / "solutions"), "-q")
    result.assert_outcomes(passed=TOTAL_CHECKS)
    result.stdout.fnmatch_lines([SCORE_LINE.format(score=TOTAL_POINTS, max_score=TOTAL_POINTS)])
    softmax_points = sum(s.points for s in discover("softmax"))
    checks = len(discover("softmax"))
    result.stdout.fnmatch_lines([EXERCISE_LINE.format(exercise="softmax", score=softmax_points,
                                                      max_score=softmax_points, passed=checks, total=checks)])


@pytest.mark.slow
def test_untouched_exercises_score_zero_without_grader_errors(pytester, tmp_path):
    report = tmp_path / "report.xml"
    result = _run(pytester, "--impl", str(ROOT / "exercises"), "-q", f"--junitxml={report}")
    result.assert_outcomes(failed=TOTAL_CHECKS)  # failures, not errors: nothing broke on the grader's side
    result.stdout.fnmatch_lines([SCORE_LINE.format(score=0, max_score=TOTAL_POINTS)])
    cases = ElementTree.parse(report).getroot().iter("testcase")
    # a check's name is unique within its exercise only (layers and linear_attention both have a
    # test_linear_matches_reference): junit's classname names the check file
    messages = {(case.get("classname"), case.get("name")): case.find("failure").text for case in cases}
    assert len(messages) == TOTAL_CHECKS
    assert all(text.startswith(NOT_IMPLEMENTED_MESSAGE + ":") for text in messages.values()), messages
    assert "Traceback" not in result.stdout.str()


def test_missing_directory_is_a_usage_error(pytester):
    result = _run(pytester, "--impl", "no/such/dir")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*" + NO_SUCH_DIR.format(path="no/such/dir") + "*"])


def test_inert_without_impl(pytester):
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = _run(pytester, "-q")
    result.assert_outcomes(passed=1)
    assert "attnkit score" not in result.stdout.str()
    markers = _run(pytester, "--markers")
    markers.stdout.fnmatch_lines(["*" + POINTS_MARKER.split(":")[0] + "*"])


def test_a_classic_mistake_is_named_in_the_failure(pytester, tmp_path):
    impl = tmp_path / "impl"
    shutil.copytree(ROOT / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
    path = impl / "attention.py"
    path.write_text(path.read_text().replace("scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores", 1))
    result = _run(pytester, "--impl", str(impl), str(ROOT / "grader" / "checks" / "check_attention.py"), "-q")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "looks like the scores were not divided by sqrt(d_k)" in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_points_reach_junit_xml(pytester, tmp_path):
    report = tmp_path / "report.xml"
    _run(pytester, "--impl", str(ROOT / "solutions"), str(ROOT / "grader" / "checks" / "check_softmax.py"),
         f"--junitxml={report}", "-q")
    text = report.read_text()
    points = [s.points for s in discover("softmax")]
    assert text.count('name="attnkit_points"') == len(points)
    assert f'value="{points[0]}"' in text


def test_a_held_property_check_is_skipped_with_its_reason_and_scores_nothing(pytester, tmp_path):
    impl = tmp_path / "impl"
    shutil.copytree(ROOT / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
    source = (impl / "softmax.py").read_text()  # right dtype, wrong values: the dtype check is held
    (impl / "softmax.py").write_text(source + "\n\n_softmax = softmax\n\n\ndef softmax(x, axis=-1):\n"
                                              "    return _softmax(x, axis) * 1.001\n")
    result = _run(pytester, "--impl", str(impl), "-q", "-rs", "-k", "test_softmax_dtypes")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines([SCORE_LINE.format(score=0, max_score=1), "*held: softmax(*) returned wrong values*"])
