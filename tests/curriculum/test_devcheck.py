"""``python -m attnkit.devcheck`` names, for every exercise, whatever it is missing (like rustlings' dev check)."""
from attnkit import devcheck
from tests.curriculum import toykit
from tests.curriculum.toykit import TOY, run


def test_an_incomplete_exercise_is_named_with_each_missing_file(tmp_path):
    root = toykit.copy_project(tmp_path / "project")
    toykit.add_toy(root, leave_out=("mistakes", "quiz bank", "stub"))
    entry = root / "grader" / "curriculum.yaml"
    entry.write_text(entry.read_text().replace('          - "Divide by the square root', "          # "))  # 1 hint
    done = run(root, "-m", "attnkit.devcheck", check=False)
    assert done.returncode == 1
    listed = done.stdout.split(f"  {TOY}", 1)[1]
    for missing in ("grader/curriculum.yaml: task 1 has 1 hint(s), at least 2 wanted [hints]",
                    f"exercises/{TOY}.py: the stub is missing or out of sync with its solution",
                    f"grader/mistakes/{TOY}.py: no mistakes module [mistakes]",
                    f"quizzes/{TOY}.yaml: no quiz bank [quiz_bank]"):
        assert missing in listed, done.stdout
    assert "missing something (see docs/adding-an-exercise.md)" in done.stdout


def test_one_exercise_or_an_unknown_one(capsys):
    assert devcheck.main(["softmax"]) == 0
    assert capsys.readouterr().out.startswith("  softmax  ok\n1 of 1 exercises complete")
    assert devcheck.main(["softmx"]) == 2
    assert "unknown exercise(s) softmx; known: softmax," in capsys.readouterr().err
