"""``attnkit watch``: a saved file re-checks its exercise and the exercises that use it."""
import gc
import io
import os
import shutil
from pathlib import Path

from attnkit import watch
from grader import curriculum

ROOT = Path(__file__).resolve().parents[2]


def test_affected_follows_the_learning_path():
    assert watch.affected({"positional"}) == ("positional",)
    assert set(watch.affected({"softmax"})) >= {"softmax", "attention", "multihead"}
    assert "positional" not in watch.affected({"softmax"})
    assert watch.affected(set()) == ()


def test_saving_a_file_rechecks_it(tmp_path):
    impl = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises", impl, ignore=shutil.ignore_patterns("__pycache__"))
    out = io.StringIO()
    polls = []

    def sleep(_):
        polls.append(1)
        if len(polls) == 2:  # the student saves a finished positional.py between two polls
            shutil.copy(ROOT / "solutions" / "positional.py", impl / "positional.py")
            stamp = (impl / "positional.py").stat().st_mtime + 5
            os.utime(impl / "positional.py", (stamp, stamp))

    collector = []  # whether the cyclic garbage collector runs between two rounds (it is paused during each)
    status = watch.main(impl, timeout=5, interval=0, out=out, rounds=3,
                        sleep=lambda seconds: (collector.append(gc.isenabled()), sleep(seconds)))
    text = out.getvalue()
    assert status == 0 and collector == [True] * 3 and gc.isenabled()
    assert watch.WATCHING.format(path=impl) in text
    start, after = text.split("changed at", 1)
    assert "checking every exercise" in start  # the first check runs at once, not after the first save
    assert all(f"TODO  {exercise}" in start for exercise in curriculum.ids())
    assert "positional.py changed" in text and "checking positional" in text
    assert text.count("changed at") == 1  # nothing else changed, nothing else was checked
    assert "positional" in after and "softmax" not in after


def test_the_saved_exercise_is_answered_before_the_exercises_that_use_it(tmp_path):
    impl = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises", impl, ignore=shutil.ignore_patterns("__pycache__"))
    out = io.StringIO()

    def sleep(_):  # the student saves a finished softmax.py before the first poll
        shutil.copy(ROOT / "solutions" / "softmax.py", impl / "softmax.py")
        stamp = (impl / "softmax.py").stat().st_mtime + 5
        os.utime(impl / "softmax.py", (stamp, stamp))

    assert watch.main(impl, timeout=5, interval=0, out=out, rounds=1, sleep=sleep) == 0
    after = out.getvalue().split("changed at", 1)[1]
    own, users = after.split("and the exercises that use softmax.py:", 1)
    assert "checking softmax" in own and "PASS  softmax" in own
    assert not any(f"  {exercise} " in own for exercise in curriculum.ids() if exercise != "softmax")
    assert "softmax " not in users.split("\n", 1)[1]  # checked once, in its own report
    assert all(f"TODO  {exercise}" in users for exercise in watch.affected({"softmax"}) if exercise != "softmax")


def test_missing_folder(tmp_path, capsys):
    assert watch.main(tmp_path / "nope", rounds=1) == 2
    assert "attnkit watch: no folder" in capsys.readouterr().err
