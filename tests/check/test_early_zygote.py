"""The sandbox's zygote started first thing by ``attnkit check`` and ``attnkit watch`` (attnkit/early.py): before the
command line is parsed and the curriculum read, used by the verb (one zygote per run), never started for another
verb or for ``--help``, and stopped when the verb ends before checking anything."""
from pathlib import Path

import pytest

from attnkit import cli, early
from grader import curriculum
from grader.sandbox.host import launch as launching

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def events(monkeypatch):
    """What happened, in order: each zygote started ("launch") and each parse of the command line ("parse")."""
    seen: list = []
    real_launch, real_parse = launching.launch, cli._parse

    def launch(*args, **kwargs):
        started = real_launch(*args, **kwargs)
        seen.append(("launch", started))
        return started

    def parse(*args, **kwargs):
        seen.append(("parse", None))
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(launching, "launch", launch)
    monkeypatch.setattr("grader.sandbox.launch_early", launch)
    monkeypatch.setattr(cli, "_parse", parse)
    curriculum.exercises.cache_clear()  # read again during the run: the zygote must be started before that
    real_exercises = curriculum.exercises

    def exercises():
        seen.append(("curriculum", None))
        return real_exercises()

    exercises.cache_clear = real_exercises.cache_clear
    monkeypatch.setattr(curriculum, "exercises", exercises)
    yield seen
    early.discard()


def launched(seen) -> list:
    return [started for what, started in seen if what == "launch"]


def test_check_starts_its_zygote_before_parsing_and_reading_the_curriculum_and_uses_it(events, capsys):
    assert cli.main(["check", "softmax", "--impl", str(ROOT / "solutions")]) == 0
    kinds = [what for what, _ in events]
    assert kinds[0] == "launch" and "parse" in kinds and "curriculum" in kinds
    assert len(launched(events)) == 1  # the verb used the early zygote, it did not start a second one
    assert launched(events)[0].process.poll() is not None  # and closed it when done
    assert "PASS  softmax" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["hint", "softmax"], ["check", "--help"], ["watch", "-h"], ["--version"], []])
def test_other_verbs_and_help_start_no_zygote(events, argv, capsys):
    cli.main(argv)
    assert launched(events) == []


@pytest.mark.parametrize("argv", [["check", "--impl", "no/such/folder"], ["check", "nonsense_exercise"],
                                  ["check", "--timeout", "-1"], ["watch", "--impl", "no/such/folder"]])
def test_a_verb_that_stops_before_checking_stops_its_zygote(events, argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert cli.main(argv) == 2
    started = launched(events)
    assert len(started) == 1 and started[0].process.poll() is not None and started[0].control.fileno() == -1
    assert early.take() is None
    assert "Traceback" not in capsys.readouterr().err


def test_a_failed_early_start_leaves_the_verb_to_start_its_own(monkeypatch, capsys):
    def refused(*args, **kwargs):
        raise OSError("no more processes")

    monkeypatch.setattr("grader.sandbox.launch_early", refused)
    early.start(["check"])
    assert early.take() is None
