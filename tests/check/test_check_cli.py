"""``attnkit check``: the student's command, on the reference, the stubs and a half-finished folder."""
import io
import json
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
    (line,) = [line for line in text.splitlines() if line.startswith("attention:")]
    assert line.startswith("attention: blocked by exercise softmax, fix it first: ")
    assert "it uses your softmax.py, which raised NotImplementedError" in line
    assert "attention, task" not in text


@pytest.mark.parametrize("args, message", [
    ((ROOT / "nowhere",), "no folder"),
    ((ROOT / "solutions", "softmaxx"), "unknown exercise 'softmaxx'"),
])
def test_user_errors(capsys, args, message):
    impl, *exercises = args
    assert check.main(exercises, impl, out=io.StringIO()) == 2
    assert message in capsys.readouterr().err


def _mutant(tmp_path, module: str, old: str, new: str) -> Path:
    impl = tmp_path / "exercises"
    shutil.copytree(ROOT / "solutions", impl, ignore=shutil.ignore_patterns("__pycache__"))
    source = (impl / f"{module}.py").read_text(encoding="utf-8")
    assert source.count(old) == 1
    (impl / f"{module}.py").write_text(source.replace(old, new), encoding="utf-8")
    return impl


def test_a_syntax_error_blocks_each_dependent_exercise_with_one_line(tmp_path):
    impl = _mutant(tmp_path, "softmax", "def softmax(", "def softmax((")
    status, text = _check(impl)
    assert status == 1
    users = [e for e in curriculum.users_of(["softmax"]) if e != "softmax"]
    assert users  # attention, multihead, kv_cache... use softmax
    for exercise in users:
        (line,) = [line for line in text.splitlines() if line.startswith(f"{exercise}: ")]
        assert line.startswith(f"{exercise}: blocked by exercise softmax, fix it first: could not import")
        assert f"{exercise}, task" not in text
    assert text.count("fix that first") == 0 and text.count("SyntaxError") == 1 + len(users)


def test_all_lists_every_failing_check(tmp_path):
    impl = _mutant(tmp_path, "attention", "scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores")
    _, first_only = _check(impl, "attention")
    failing = int(first_only.split("FAIL  attention", 1)[1].split()[1].split("/")[1])
    assert first_only.count("attention, task") == 1
    assert "more failing checks: attnkit check attention --all" in first_only
    out = io.StringIO()
    assert check.main(["attention"], impl, timeout=10, out=out, every=True) == 1
    every = out.getvalue()
    assert every.count("attention, task") == failing == 8
    values = sum(spec.rule == "values" for spec in discover("attention"))  # the property checks are held: one line
    assert every.count("looks like the scores were not divided by sqrt(d_k)") == values == 6
    assert every.count("\n  held: ") == failing - values
    assert "--all" not in every


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_a_timeout_that_is_not_positive_is_refused_by_the_parser(capsys, value):
    from attnkit import cli

    assert cli.main(["check", "--timeout", value, "--impl", str(ROOT / "solutions")]) == 2
    err = capsys.readouterr().err
    assert "argument --timeout:" in err and "Traceback" not in err
    assert "above 0" in err or "not a number" in err


def test_a_diagnosed_mistake_queues_its_quiz_questions_for_review(tmp_path, private_home):
    from attnkit.quiz.progress import Progress, questions_about

    impl = _mutant(tmp_path, "attention", "scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores")
    status, text = _check(impl, "attention")
    assert status == 1
    about = questions_about(["attention_no_scale"])
    assert about  # the banks have questions tagged with this mistake
    waiting = f"{len(about)} quiz questions about this mistake now wait" if len(about) != 1 \
        else "1 quiz question about this mistake now waits"
    assert f"{waiting} in `attnkit quiz --review`" in text
    cards = Progress.load().cards
    assert set(about) <= set(cards)
    status, text = _check(ROOT / "solutions", "attention")
    assert status == 0 and "quiz" not in text  # nothing diagnosed, nothing queued


def test_quiz_progress_from_before_courses_is_moved_and_the_check_says_so(tmp_path, private_home):
    from attnkit.quiz.progress import Progress, questions_about

    private_home.mkdir(parents=True)
    legacy = {"format": "attnkit-quiz-progress", "version": 1, "sessions": [], "cards": {
        "qa1-purpose": {"box": 2, "due": "2025-03-02T09:00:00Z", "reviews": 1, "lapses": 0,
                        "last": "2025-03-01T09:00:00Z", "why": ""}}}
    (private_home / "quiz-progress.json").write_text(json.dumps(legacy))
    impl = _mutant(tmp_path, "attention", "scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores")
    status, text = _check(impl, "attention")
    assert status == 1 and "note: " in text and "from before attnkit kept state per course, was moved" in text
    cards = Progress.load().cards
    assert cards["qa1-purpose"].reviews == 1 and set(questions_about(["attention_no_scale"])) <= set(cards)


def test_the_predict_first_gate_holds_an_exercise_until_its_predictions_are_right(monkeypatch):
    from attnkit.quiz import gate

    out = io.StringIO()
    assert check.main(["softmax"], ROOT / "solutions", out=out) == 0  # the gate is off unless switched on
    monkeypatch.setenv(check.PREDICT_GATE, "1")
    out = io.StringIO()
    assert check.main(["softmax", "masking"], ROOT / "solutions", out=out) == 1
    lines = out.getvalue().splitlines()
    points = {e: f"{curriculum.get(e).points:g}" for e in ("softmax", "masking")}
    assert lines[:2] == [f"WAIT  {e:<18} {'-':>5}/{points[e]:<5} not checked yet: predict first"
                         for e in ("softmax", "masking")]  # in the table, in order, unchecked
    both = curriculum.total_points(("softmax", "masking"))
    assert lines[2].split()[:2] == ["total", f"0/{both:g}"]
    waiting = [line for line in lines if "waiting for your predictions" in line]
    assert waiting == [lines[-1]] and lines[-1].startswith("softmax, masking: waiting")  # one line, not one each
    assert "attnkit quiz --exercise softmax" in lines[-1] and "PASS" not in out.getvalue()
    monkeypatch.setattr(gate, "passed", lambda exercise, **_: exercise == "softmax")
    out = io.StringIO()
    assert check.main(["softmax", "masking"], ROOT / "solutions", out=out) == 1
    text = out.getvalue()
    assert "PASS  softmax" in text and "WAIT  masking" in text and "\nmasking: waiting for your predictions" in text
