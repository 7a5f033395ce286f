"""One CLI convention: every verb is a package ``attnkit/<verb>/`` with ``add_arguments(parser)`` and
``run(args)``; ``attnkit/cli.py`` lists the verbs and holds no "module:function" strings."""
import importlib
import inspect
import re
from pathlib import Path

import pytest

from attnkit import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("verb", list(cli.VERBS))
def test_every_verb_exposes_add_arguments_and_run(verb, capsys):
    module = importlib.import_module(f"attnkit.{verb}")
    assert inspect.isfunction(module.add_arguments) and inspect.isfunction(module.run), verb
    assert cli.main([verb, "--help"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: attnkit {verb}") and "``" not in shown  # no raw reStructuredText


def test_the_cli_names_no_entry_point_strings():
    source = (ROOT / "attnkit" / "cli.py").read_text()
    assert not re.search(r"[\"']attnkit\.[\w.]+:\w+[\"']", source)
    packages = {p.name for p in (ROOT / "attnkit").iterdir() if (p / "__init__.py").is_file()}
    assert packages - {"__pycache__"} >= set(cli.VERBS)


def test_the_top_level_help_lists_every_installed_verb(capsys):
    assert cli.main([]) == 0
    listed = capsys.readouterr().out
    assert all(f"\n    {verb} " in listed or f"\n    {verb}\n" in listed for verb in cli.installed())


def _verbs_made(top) -> set[str]:
    return {verb for action in top._subparsers._group_actions for verb in action.choices}


def test_a_chosen_verb_gets_only_its_own_sub_parser_and_the_same_usage(capsys):
    assert _verbs_made(cli.parser("check")) == {"check"}
    assert _verbs_made(cli.parser(None)) == set(cli.installed())
    assert _verbs_made(cli.parser("no-such-verb")) == set(cli.installed())  # its error lists every verb
    assert cli.main(["check", "--no-such-option"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("usage: attnkit check ") and "unrecognized arguments: --no-such-option" in error
    assert cli.main(["chek"]) == 2
    refused = capsys.readouterr().err
    assert "invalid choice: 'chek'" in refused and all(f"'{verb}'" in refused for verb in cli.installed())
