"""The checkout's cache of its YAML files' parsed and checked data (grader.parse_cache, through grader.parsed.load): a
second read of the same bytes parses and checks nothing; an edited file, or an edited checker, is parsed and checked
again; a broken curriculum is refused with the same message whatever the cache holds; a damaged entry is ignored."""
from __future__ import annotations

import json

import pytest
import yaml

from grader import content_cache, curriculum, parse_cache, parsed
from grader.curriculum import CurriculumError


@pytest.fixture
def cache(tmp_path):
    """The files of these tests are in ``tmp_path``: their entries go to its ``__pycache__``."""
    return tmp_path / "__pycache__"


@pytest.fixture
def parses(monkeypatch):
    """How many times the YAML parser ran."""
    count = [0]
    real = yaml.load

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(yaml, "load", counted)
    return count


def test_the_same_bytes_are_parsed_and_checked_once(tmp_path, cache, parses):
    path = tmp_path / "values.yaml"
    path.write_text("a: [1, 2.5, x]\nb: {c: null}\n", encoding="utf-8")
    checked = []
    first = parsed.load(path, checked.append)
    again = parsed.load(path, checked.append)
    assert first == again == {"a": [1, 2.5, "x"], "b": {"c": None}}
    assert parses[0] == 1 and len(checked) == 1
    assert [entry.name for entry in cache.iterdir()] == [f"values.yaml.{parse_cache.key(path.read_bytes())}.json"]


def test_an_edited_file_is_parsed_again_and_keeps_one_entry(tmp_path, cache, parses):
    path = tmp_path / "values.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert parsed.load(path) == {"a": 1}
    path.write_text("a: 2\n", encoding="utf-8")  # same length, same name
    assert parsed.load(path) == {"a": 2}
    assert parsed.load(path) == {"a": 2}
    assert parses[0] == 2 and len(list(cache.iterdir())) == 1


def test_an_edited_checker_checks_again(tmp_path, cache, parses):
    path, rule = tmp_path / "values.yaml", tmp_path / "schema.json"
    path.write_text("a: 1\n", encoding="utf-8")
    rule.write_text("{}", encoding="utf-8")
    checked = []
    parsed.load(path, checked.append, checked_by=(rule,))
    rule.write_text('{"required": ["b"]}', encoding="utf-8")
    parsed.load(path, checked.append, checked_by=(rule,))
    assert len(checked) == 2 and parses[0] == 2


def test_data_that_fails_its_check_is_never_kept(tmp_path, cache, parses):
    path = tmp_path / "values.yaml"
    path.write_text("a: 1\n", encoding="utf-8")

    def refuse(data):
        raise ValueError("no")

    for _ in range(2):
        with pytest.raises(ValueError):
            parsed.load(path, refuse)
    assert parses[0] == 2 and not cache.exists()


@pytest.mark.parametrize("damage", ["{half", '{"key": "other", "data": 1}', "[]"])
def test_a_damaged_entry_is_parsed_again(tmp_path, cache, parses, damage):
    path = tmp_path / "values.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    parsed.load(path)
    (entry,) = cache.iterdir()
    entry.write_text(damage, encoding="utf-8")
    assert parsed.load(path) == {"a": 1} and parses[0] == 2


def test_a_folder_that_cannot_be_written_only_costs_the_parse(tmp_path, monkeypatch, parses):
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(content_cache, "folder", lambda path: blocker / "pycache")
    path = tmp_path / "values.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert parsed.load(path) == parsed.load(path) == {"a": 1} and parses[0] == 2


def test_data_json_cannot_carry_is_not_kept(tmp_path, cache):
    path = tmp_path / "dated.yaml"
    path.write_text("when: 2024-01-02\n1: one\n", encoding="utf-8")
    assert parsed.load(path)[1] == "one" and parsed.load(path)[1] == "one"
    assert not cache.exists()


def _curriculum_file(tmp_path, text: str):
    path = tmp_path / "curriculum.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_curriculum_from_the_cache_is_the_curriculum(tmp_path, cache, parses):
    path = _curriculum_file(tmp_path, curriculum.PATH.read_text(encoding="utf-8"))
    first = curriculum.parse(curriculum.load_data(path), path)
    second = curriculum.parse(curriculum.load_data(path), path)
    assert first == second == curriculum.exercises() and parses[0] == 1


def test_a_broken_curriculum_gives_its_exact_message_after_a_valid_one_was_kept(tmp_path, monkeypatch, parses):
    text = curriculum.PATH.read_text(encoding="utf-8")
    broken = text.replace("title:", "titel:", 1)
    messages = []
    for folder in ("empty", "warm"):
        monkeypatch.setattr(content_cache, "folder", lambda path, folder=folder: tmp_path / folder)
        path = _curriculum_file(tmp_path, text)
        if folder == "warm":
            curriculum.load_data(path)  # the valid curriculum is kept
        path.write_text(broken, encoding="utf-8")
        with pytest.raises(CurriculumError) as refused:
            curriculum.load_data(path)
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and "'title' is missing" in messages[0]
    assert json.loads(next((tmp_path / "warm").iterdir()).read_text(encoding="utf-8"))["data"]["exercises"]


def test_a_file_written_to_while_it_was_read_is_not_kept(tmp_path, cache, monkeypatch):
    path = tmp_path / "values.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    real = yaml.load

    def edit_then_parse(*args, **kwargs):
        path.write_text("a: 2\n", encoding="utf-8")  # an editor saving between the digest and the parse
        return real(*args, **kwargs)

    monkeypatch.setattr(yaml, "load", edit_then_parse)
    assert parsed.load(path) == {"a": 2}
    assert not cache.exists()  # {"a": 2} under the digest of "a: 1" would answer wrongly for "a: 1"
    monkeypatch.setattr(yaml, "load", real)
    path.write_text("a: 1\n", encoding="utf-8")
    assert parsed.load(path) == {"a": 1}


def test_each_folder_keeps_its_own_entries(tmp_path, parses):
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, text in ((one, "a: 1\n"), (two, "a: 2\n")):
        folder.mkdir()
        (folder / "values.yaml").write_text(text, encoding="utf-8")
    for _ in range(2):
        assert [parsed.load(one / "values.yaml"), parsed.load(two / "values.yaml")] == [{"a": 1}, {"a": 2}]
    assert parses[0] == 2  # a file of the same name elsewhere does not evict the other's entry
    assert content_cache.folder(one / "values.yaml") == one / "__pycache__"
    assert content_cache.folder(curriculum.PATH) == curriculum.PATH.parent / "__pycache__"
