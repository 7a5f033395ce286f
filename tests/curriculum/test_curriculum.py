"""The curriculum is the only list of exercises: points add up, and no other file lists the exercises."""
import re
from pathlib import Path

import pytest

from grader import curriculum
from grader.runner import discover

ROOT = Path(__file__).resolve().parents[2]
# Where an exercise id may be written out: its curriculum entry, checks, mistakes and quiz bank.
OWN_FILES = ("grader/curriculum.yaml", "grader/checks/check_{id}.py", "grader/mistakes/{id}.py", "quizzes/{id}.yaml")
SCANNED = ("attnkit", "grader", "quizzes")


def test_the_total_is_the_sum_of_the_exercises_points():
    assert curriculum.total_points() == sum(spec.points for e in curriculum.ids() for spec in discover(e))
    subset = curriculum.select("softmax,masking,attention")
    assert curriculum.total_points(subset) == sum(curriculum.get(e).points for e in ("softmax", "masking", "attention"))


@pytest.mark.parametrize("exercise", ["kv_cache", "tiled_attention", "cross_attention", "gqa", "position_bias",
                                      "linear_attention", "attention_backward"])
def test_an_exercise_id_is_written_only_in_its_own_files(exercise):
    """Adding an exercise touches its own files only: nothing else under attnkit/, grader/, quizzes/ names it."""
    allowed = {pattern.format(id=exercise) for pattern in OWN_FILES}
    word = re.compile(rf"\b{exercise}\b")  # the id, not a longer name such as kv_cache_bytes
    # a later exercise's checks may call this one's reference (ref.kv_cache.KVCache() for the expected values)
    reference_use = re.compile(rf"\bref\.{exercise}\.")

    def names_it(path: Path) -> bool:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.parent.name == "checks" and path.name.startswith("check_"):
            text = reference_use.sub("", text)
        return bool(word.search(text))

    found = sorted(str(path.relative_to(ROOT)) for folder in SCANNED for path in (ROOT / folder).rglob("*")
                   if path.is_file() and path.suffix in (".py", ".yaml", ".json", ".md", ".sh")
                   and "__pycache__" not in path.parts and names_it(path))  # generated: bytecode, parse cache
    assert set(found) <= allowed, sorted(set(found) - allowed)


def test_select_keeps_the_learning_path_order_and_names_unknown_ids(tmp_path):
    assert curriculum.select("attention,softmax,masking") == ("softmax", "masking", "attention")
    course = tmp_path / "course.yaml"
    course.write_text("exercises: [masking, softmax]\n", encoding="utf-8")
    assert curriculum.select(str(course)) == ("softmax", "masking")
    with pytest.raises(ValueError, match="unknown exercise.*'softmx'"):
        curriculum.select("softmx")
    assert curriculum.missing_dependencies(curriculum.select("softmax,masking,multihead")) == [
        "multihead builds on attention"]
