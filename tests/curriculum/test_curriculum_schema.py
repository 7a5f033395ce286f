"""grader/curriculum.yaml has a format_version and a JSON Schema, checked at every load (without jsonschema, whose
start-up would slow ``attnkit check``): the checking judges like jsonschema, and a broken curriculum gets one line
naming the file and the entry."""
import json
import re

import jsonschema
import pytest
import yaml

from grader import curriculum
from grader.curriculum import CurriculumError
from grader.schema_subset import first_error
from tests.curriculum import toykit

SCHEMA = json.loads(curriculum.SCHEMA.read_text(encoding="utf-8"))
KIT = yaml.safe_load(curriculum.PATH.read_text(encoding="utf-8"))


def broken(change):
    data = json.loads(json.dumps(KIT))
    change(data)
    return data


BROKEN = {
    "no format_version": (lambda d: d.pop("format_version"), "'format_version' is missing"),
    "format_version 2": (lambda d: d.update(format_version=2), "format_version: must be 1, not 2"),
    "a misspelt key": (lambda d: d["exercises"][2].update(modul="attention"),
                       "exercise 3 (attention): unknown key 'modul'"),
    "a task without hints": (lambda d: d["exercises"][0]["tasks"][0].pop("hints"),
                             "exercise 1 (softmax), tasks[0]: 'hints' is missing"),
    "an id that is no module name": (lambda d: d["exercises"][1].update(id="Masking-2"),
                                     "exercise 2 (Masking-2), id: 'Masking-2' does not match"),
    "points below zero": (lambda d: d["exercises"][0].update(points=-1), "exercise 1 (softmax), points: must be more"),
    "a title that is a number": (lambda d: d["exercises"][0].update(title=3), "title: must be a string, not int"),
    "no exercises": (lambda d: d.update(exercises=[]), "exercises: needs at least 1 item(s)"),
}


def test_the_kits_curriculum_and_its_built_copies_are_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for data in (KIT, yaml.safe_load(curriculum.subset_text(curriculum.ids(), for_students=True)),
                 yaml.safe_load(curriculum.subset_text(("softmax",)))):
        jsonschema.validate(data, SCHEMA)
        assert first_error(data, SCHEMA) is None


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_curriculum_is_refused_in_one_line_naming_the_entry(case, tmp_path):
    change, message = BROKEN[case]
    data = broken(change)
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(data)  # the schema says so too
    path = tmp_path / "curriculum.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(CurriculumError) as refused:
        curriculum.parse(curriculum.load_data(path), path)
    text = str(refused.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text, text


def test_ids_and_dependencies_are_refused_when_they_name_no_earlier_exercise(tmp_path):
    path = tmp_path / "curriculum.yaml"
    for change, message in ((lambda d: d["exercises"][0].update(depends_on=["attention"]),
                             "exercise 1 (softmax): depends_on names attention, which is no earlier exercise"),
                            (lambda d: d["exercises"][1].update(id="softmax"),
                             "exercise 2 (softmax): the id is used twice")):
        path.write_text(yaml.safe_dump(broken(change)), encoding="utf-8")
        with pytest.raises(CurriculumError, match=re.escape(message)):
            curriculum.parse(curriculum.load_data(path), path)


def test_points_are_read_from_the_checks_without_importing_them():
    from grader.runner import discover

    assert {e: curriculum.checks_points(e) for e in curriculum.ids()} == {
        e: sum(spec.points for spec in discover(e)) for e in curriculum.ids()}
    assert all(entry.get("points") is None for entry in KIT["exercises"])
    built = yaml.safe_load(curriculum.subset_text(("softmax", "masking"), for_students=True))
    assert [entry["points"] for entry in built["exercises"]] == [curriculum.get("softmax").points,
                                                                 curriculum.get("masking").points]


def test_the_front_ends_say_it_in_one_line(tmp_path):
    root = toykit.copy_project(tmp_path / "project")
    path = root / "grader" / "curriculum.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("format_version: 1", "format_version: 2"))
    for command in (("-m", "attnkit", "check", "softmax"), ("-m", "attnkit.devcheck")):
        done = toykit.run(root, *command, check=False)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip().endswith("curriculum.yaml: format_version: must be 1, not 2 (see "
                                            "curriculum.schema.json)") and done.stderr.count("\n") == 1, done.stderr
