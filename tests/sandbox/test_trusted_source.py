"""A trusted folder loaded in process (``in_process``) runs the source as it is now, not bytecode of an earlier
version: a module rewritten with the same size in the same second (its bytecode's stamp) is compiled again."""
import os
import sys

from grader.sandbox import in_process

VERSION = "def answer():\n    return {value}\n"


def test_a_module_rewritten_within_one_second_at_one_size_runs_as_rewritten(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # as a run without PYTHONDONTWRITEBYTECODE
    module = tmp_path / "toy.py"
    answers = []
    for value in (1, 2, 3):
        module.write_text(VERSION.format(value=value))
        os.utime(module, (1_700_000_000, 1_700_000_000))  # one stamp for every version
        answers.append(in_process(tmp_path, "toy").toy.answer())
    assert answers == [1, 2, 3]
    assert not (tmp_path / "__pycache__").exists()  # nothing written that a later load could trust
