"""``python -m attnkit.devcheck`` names, for every exercise, whatever it is missing (like rustlings' dev check)."""
from attnkit import devcheck
from tests.curriculum import toykit
from tests.curriculum.toykit import TOY, run


def test_every_exercise_of_the_kit_is_complete():
    reports = devcheck.check_all()
    assert {report.exercise: report.missing for report in reports if report.missing} == {}


def test_an_incomplete_exercise_is_named_with_each_missing_file(tmp_path):
    root = toykit.copy_project(tmp_path / "project")
    toykit.add_toy(root, leave_out=("mistakes", "quiz bank", "stub"))
    entry = root / "grader" / "curriculum.yaml"
    entry.write_text(entry.read_text().replace('          - "Divide by the square root', "          # "))  # 1 hint
    done = run(root, "-m", "attnkit.devcheck", check=False)
    assert done.returncode == 1
    listed = done.stdout.split(f"  {TOY}", 1)[1]
    for missing in ("hints for task 1 in grader/curriculum.yaml (has 1, at least 2)",
                    f"the stub exercises/{TOY}.py in sync with its solution",
                    f"at least one classic mistake in grader/mistakes/{TOY}.py",
                    f"a quiz bank quizzes/{TOY}.yaml"):
        assert missing in listed, done.stdout
    assert "missing something (see docs/adding-an-exercise.md)" in done.stdout
