"""The banks' index (attnkit.quiz.about): which questions are about which mistakes and concepts, as loading the banks
says, answered only while the banks are the ones indexed."""
from __future__ import annotations

import shutil

from attnkit.quiz import about, progress
from attnkit.quiz.bank import load_bank
from attnkit.quiz.shipped import default_dir, default_files

ASKED = ["softmax_no_max_subtraction", "causal_mask_triu", "attention", "no_such_mistake"]


def banks_in(tmp_path, monkeypatch):
    folder = tmp_path / "quizzes"
    folder.mkdir()
    for path in default_files():
        shutil.copyfile(path, folder / path.name)
    monkeypatch.setattr(about, "default_dir", lambda: folder)
    monkeypatch.setattr(about, "default_files", lambda: sorted(folder.glob("*.yaml")))
    return folder


def test_the_index_answers_as_the_banks_do(tmp_path, monkeypatch):
    expected = progress.questions_about(ASKED, load_bank())
    assert len(set(expected.values())) >= 2
    folder = banks_in(tmp_path, monkeypatch)
    assert about.indexed() is None   # no index yet: the banks are loaded
    assert about.write_index(folder)
    listed = about.indexed()
    assert [qid for qid, _ in listed] == [question.id for question in load_bank().questions]
    assert progress.questions_about(ASKED) == expected
    assert list(progress.questions_about(ASKED)) == list(expected)   # in the banks' order


def test_an_edited_bank_is_read_again(tmp_path, monkeypatch):
    folder = banks_in(tmp_path, monkeypatch)
    assert about.write_index(folder)
    bank = folder / "softmax.yaml"
    bank.write_text(bank.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert about.indexed() is None
    (folder / "extra.yaml").write_text((folder / "masking.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    bank.write_text((default_dir() / "softmax.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert about.indexed() is None   # one bank more than indexed


def test_broken_banks_get_no_index(tmp_path, monkeypatch):
    folder = banks_in(tmp_path, monkeypatch)
    (folder / "softmax.yaml").write_text("topic: softmax\nquestions: [ {id: x\n", encoding="utf-8")
    assert not about.write_index(folder) and not (folder / about.INDEX_NAME).exists()


def test_without_a_shipped_index_the_last_load_is_remembered(tmp_path, monkeypatch):
    """The checkout ships no index: the first question about a mistake loads the banks and keeps their index for
    those bytes (the __pycache__ beside the banks); the next one answers from it without loading a bank; an edited
    bank is loaded again. Nothing goes to the per-user folder."""
    folder = banks_in(tmp_path, monkeypatch)
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    expected = progress.questions_about(ASKED, load_bank())
    assert about.indexed() is None
    assert progress.questions_about(ASKED) == expected   # loads the banks, and remembers
    assert list((folder / "__pycache__").glob(f"{about.INDEX_NAME}.*.json"))

    def not_loaded(*args, **kwargs):
        raise AssertionError("the banks were loaded although their index was remembered")

    monkeypatch.setattr("attnkit.quiz.bank.load_bank", not_loaded)
    assert progress.questions_about(ASKED) == expected
    assert list(progress.questions_about(ASKED)) == list(expected)
    bank = folder / "softmax.yaml"
    bank.write_text(bank.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert about.indexed() is None   # another bank than remembered
    (folder / "softmax.yaml").rename(folder / "zz.yaml")
    assert about.indexed() is None   # the same bytes under another name: another order of the banks
    assert not (tmp_path / "home").exists()


def test_an_unwritable_folder_only_costs_a_load(tmp_path, monkeypatch):
    folder = banks_in(tmp_path, monkeypatch)
    (folder / "__pycache__").write_text("a file where the folder would be", encoding="utf-8")
    expected = progress.questions_about(ASKED, load_bank())
    assert progress.questions_about(ASKED) == expected
    assert about.indexed() is None
