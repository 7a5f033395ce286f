"""The kit's YAML files through their parsed copies (grader.parsed): the copy answers only for the bytes it was made
from; an edited file is read itself, with the parser's message when it is not YAML."""
from __future__ import annotations

import json

import pytest

from grader import curriculum, parsed


def test_the_copy_answers_for_the_file_it_was_made_from(tmp_path):
    path = tmp_path / "values.yaml"
    path.write_text("a: [1, 2.5, x]\nb: {c: null}\n", encoding="utf-8")
    assert parsed.write_copy(path)
    copy = parsed.copy_of(path)
    assert copy.name == "values.parsed.json"
    assert parsed.load(path) == {"a": [1, 2.5, "x"], "b": {"c": None}}
    made = json.loads(copy.read_text(encoding="utf-8"))
    copy.write_text(json.dumps(dict(made, data={"from": "the copy"})), encoding="utf-8")
    assert parsed.load(path) == {"from": "the copy"}   # read from the copy, not parsed again
    path.write_text("a: [3]\n", encoding="utf-8")       # edited after the build: the copy is not the file's
    assert parsed.load(path) == {"a": [3]}
    copy.write_text("{not json", encoding="utf-8")
    assert parsed.load(path) == {"a": [3]}


def test_data_json_cannot_carry_gets_no_copy(tmp_path):
    path = tmp_path / "dated.yaml"
    path.write_text("when: 2024-01-02\n1: one\n", encoding="utf-8")
    assert not parsed.write_copy(path) and not parsed.copy_of(path).exists()
    assert parsed.load(path)[1] == "one"


def test_not_yaml_is_one_line_naming_the_place(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("a: [1, 2\nb: 3\n", encoding="utf-8")
    with pytest.raises(parsed.NotYaml) as refused:
        parsed.load(path)
    assert "\n" not in str(refused.value) and "broken.yaml" in str(refused.value)


def test_the_curriculum_read_through_its_copy_is_the_same(tmp_path):
    path = tmp_path / "curriculum.yaml"
    path.write_text(curriculum.PATH.read_text(encoding="utf-8"), encoding="utf-8")
    assert parsed.write_copy(path)
    assert curriculum.parse(curriculum.load_data(path), path) == curriculum.exercises()
